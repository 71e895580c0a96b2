"""/v1/docs in a real headless Chromium with no way out to the network: Swagger UI, served by the
service itself, renders the API's routes (FastAPI's default page loads it from a CDN and stays blank
offline)."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("swagger_ui_bundle", reason="the docs need swagger-ui-bundle-v2 (the serve extra)")
webdriver = pytest.importorskip("selenium.webdriver", reason="the docs test needs selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from serving import running  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not os.path.exists(CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (scripts/test installs them)",
)


def test_docs_render_without_the_network():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--disable-extensions",
                 # Every host but the loopback service is unreachable, as on a machine offline.
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    try:
        driver.set_page_load_timeout(20)
        with running(create_app(Settings())) as url:
            driver.get(url + "/v1/docs")
            WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path"))
            paths = {e.text.replace("\u200b", "") for e in driver.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
            assert {"/v1/moves", "/v1/hint", "/v1/health"} <= paths
            assert "tavla hint service" in driver.find_element(By.CSS_SELECTOR, ".info .title").text
            assert not driver.find_elements(By.CSS_SELECTOR, ".errors-wrapper")
    finally:
        driver.quit()
