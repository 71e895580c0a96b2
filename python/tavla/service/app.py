"""The HTTP service: routes under /v1, error answers, the body size limit and the web board."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable, Optional, Union

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import tavla

from . import positions
from .analyses import ANALYSES, add_analysis_routes
from .rollouts import add_rollout_routes
from .config import Settings, settings_from_env
from .deprecation import DeprecationHeaders
from .failsafe import Failsafe
from .games import play_turn
from .matches import play_match_turn
from .engine_pool import Busy, EnginePool, TimedOut
from .jobs import JobStore, NoSuchJob, TooManyJobs
from .limits import BodySizeLimit
from .positions import BadInput, move_out, parse_source, position_out, roll_for
from ..cube_view import cube_from_info, cube_state
from .schemas import (
    CandidateOut,
    CubeDecisionOut,
    CubeIn,
    CubeMwc,
    CubeOut,
    CubeRequest,
    CascadeStepOut,
    CascadeStepRequest,
    EngineMoveOut,
    EngineMoveRequest,
    ErrorOut,
    EvaluateOut,
    EvaluateRequest,
    EvaluationOut,
    HandoverOut,
    HandoverRequest,
    HealthOut,
    HintOut,
    HintRequest,
    MatchTurnOut,
    MatchTurnRequest,
    MovesOut,
    MovesRequest,
    PositionInfo,
    PositionRequest,
    Probabilities,
    TurnOut,
    TurnRequest,
    VersionOut,
)

API_VERSION = "1"
OPENAPI = "/v1/openapi.json"
TURN = "/v1/turn"
MATCH_TURN = "/v1/match-turn"
STATIC = Path(__file__).parent / "static"

# The routes' documented error answers, in FastAPI's `responses` form.
Responses = dict[Union[int, str], dict[str, Any]]  # evaluated at import: no "|" on Python 3.9
BAD_INPUT: Responses = {422: {"model": ErrorOut, "description": "the request names an impossible or unreadable position, dice or option"},
             400: {"model": ErrorOut, "description": "the body is not valid JSON"},
             413: {"model": ErrorOut, "description": "the body is larger than the service accepts"},
             415: {"model": ErrorOut, "description": "the body is not sent as JSON (Content-Type: application/json)"}}
TURN_ERRORS: Responses = {**BAD_INPUT, 422: {"model": ErrorOut, "description": "a broken game record, an illegal move, an "
                                   "action the game's phase does not allow, or an impossible position, dice or option"}}
MATCH_ERRORS: Responses = {**BAD_INPUT, 422: {"model": ErrorOut, "description": "a broken match record, an illegal "
                           "move, a cube action the rules refuse (double when not allowed, take with nothing offered, a "
                           "beaver outside money play...), settings that contradict each other, or an impossible position"}}
ENGINE_ERRORS: Responses = {503: {"model": ErrorOut, "description": "every worker and queue place busy"},
                 504: {"model": ErrorOut, "description": "the engine ran past the time limit"}}


def create_app(settings: Optional[Settings] = None) -> FastAPI:
    settings = settings or settings_from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Before the first request: the bear-off tables (a second or two, once per process).
        await asyncio.to_thread(app.state.pool.warm_up)
        yield
        app.state.pool.close()
        app.state.jobs.close()

    app = FastAPI(
        title="tavla hint service",
        version=tavla.__version__,
        description="Legal moves, hints, evaluations and engine moves for backgammon, long nardy and gul bara.",
        openapi_url=OPENAPI,
        docs_url=None,  # served by add_docs, from the package rather than a CDN
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.pool = EnginePool(settings)
    app.state.jobs = JobStore(workers=settings.job_workers, max_jobs=settings.max_jobs,
                              time_limit=settings.job_time_limit)
    # /v1/turn carries a whole game record, which grows with the game; /v1/analyses a match file.
    larger = {path: max(settings.max_body, settings.max_game_body) for path in (TURN, MATCH_TURN)}
    larger[ANALYSES] = max(settings.max_body, settings.max_match_body)
    app.add_middleware(BodySizeLimit, max_body=settings.max_body, larger=larger)
    app.add_middleware(JsonBodyRequired)
    app.add_middleware(DeprecationHeaders)
    app.add_middleware(Failsafe)  # added last, so it wraps everything else
    add_error_answers(app)
    add_routes(app, settings)
    add_analysis_routes(app, settings, app.state.jobs, BAD_INPUT)
    add_rollout_routes(app, settings, app.state.jobs, BAD_INPUT, cube_of)
    add_docs(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


DOCS = "/v1/docs"
DOCS_FILES = DOCS + "/files"


def swagger_ui_files() -> Optional[Path]:
    """The folder of Swagger UI's files shipped by the swagger-ui-bundle-v2 package, if installed."""
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        return None
    path = Path(str(swagger_ui_path))
    return path if (path / "swagger-ui-bundle.js").is_file() and (path / "swagger-ui.css").is_file() else None


def add_docs(app: FastAPI) -> None:
    """The interactive API docs at /v1/docs, with Swagger UI served from the installed package so that
    the page works offline (FastAPI's default loads it from a CDN and shows a blank page without one)."""
    files = swagger_ui_files()
    if files is not None:
        app.mount(DOCS_FILES, StaticFiles(directory=files), name="swagger-ui")

    @app.get(DOCS, include_in_schema=False)
    async def docs():
        if files is None:
            return HTMLResponse(
                "<!DOCTYPE html><html><head><title>tavla hint service - API docs</title></head><body>"
                "<p>The interactive API docs need Swagger UI's files: "
                "<code>pip install swagger-ui-bundle-v2</code> (or <code>pip install \"tavla[serve]\"</code>).</p>"
                f'<p>The API schema is at <a href="{OPENAPI}">{OPENAPI}</a>.</p></body></html>')
        return get_swagger_ui_html(
            openapi_url=OPENAPI, title=f"{app.title} - API docs",
            swagger_js_url=f"{DOCS_FILES}/swagger-ui-bundle.js", swagger_css_url=f"{DOCS_FILES}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_FILES}/favicon-32x32.png", oauth2_redirect_url=None)


JSON_TYPE = "application/json"


def is_json_type(content_type: bytes) -> bool:
    """application/json, or any application/...+json type, with or without parameters."""
    media = content_type.decode("latin-1").split(";", 1)[0].strip().lower()
    return media == JSON_TYPE or (media.startswith("application/") and media.endswith("+json"))


class JsonBodyRequired:
    """ASGI middleware: a POST to one of the service's routes whose body is not declared as JSON gets
    415 naming the Content-Type to send, rather than a 422 saying the body is not an object."""

    def __init__(self, app):
        self.app = app
        self.post_paths: Optional[set] = None

    def json_routes(self, scope) -> set:
        if self.post_paths is None:
            routes = getattr(scope.get("app"), "routes", ())
            self.post_paths = {r.path for r in routes if "POST" in (getattr(r, "methods", None) or ())}
        return self.post_paths

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in self.json_routes(scope):
            content_type = dict(scope.get("headers") or []).get(b"content-type", b"")
            if not is_json_type(content_type):
                shown = content_type.decode("latin-1")[:100] or "none"
                response = error(415, f"send the body as JSON with Content-Type: {JSON_TYPE} (the request's "
                                      f"Content-Type is {shown})")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error(status: int, message: str, headers: Optional[dict] = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def describe_validation(exc: RequestValidationError) -> tuple[int, str]:
    """One line naming each problem pydantic found ("position.mine: ...")."""
    problems = exc.errors()
    if any(p.get("type") == "json_invalid" for p in problems):
        return 400, "the body is not valid JSON"
    parts = []
    for p in problems[:5]:
        where = ".".join(str(x) for x in p.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {p.get('msg', 'invalid')}")
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return 422, "; ".join(parts) + more


def add_error_answers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def on_validation(_request: Request, exc: RequestValidationError):
        return error(*describe_validation(exc))

    @app.exception_handler(BadInput)
    async def on_bad_input(_request: Request, exc: BadInput):
        return error(422, str(exc))

    @app.exception_handler(Busy)
    async def on_busy(_request: Request, exc: Busy):
        return error(503, str(exc), {"Retry-After": "1"})

    @app.exception_handler(TimedOut)
    async def on_timeout(_request: Request, exc: TimedOut):
        return error(504, str(exc))

    @app.exception_handler(NoSuchJob)
    async def on_no_job(_request: Request, exc: NoSuchJob):
        return error(404, f"no job has the id {exc.args[0]!r} (jobs are forgotten an hour after they finish)")

    @app.exception_handler(TooManyJobs)
    async def on_too_many_jobs(_request: Request, exc: TooManyJobs):
        return error(503, str(exc), {"Retry-After": "10"})

    @app.exception_handler(StarletteHTTPException)
    async def on_http(_request: Request, exc: StarletteHTTPException):
        return error(exc.status_code, str(exc.detail))



def checked_ply(ply: Optional[int], settings: Settings) -> int:
    if ply is None:
        return settings.default_ply
    if ply > settings.max_ply:
        raise BadInput(f"ply {ply} is above this service's maximum ply {settings.max_ply}")
    return ply


def cube_in(cube: Optional[CubeIn], field: str = "cube") -> Optional[Any]:
    """The request's cube object as a ``tavla.CubeState``; what CubeState refuses answers 422 naming the
    field and the problem."""
    if cube is None:
        return None
    return checked_cube(field, value=cube.value, owner=None if cube.owner == "centered" else cube.owner,
                        match_length=cube.match_length, score=tuple(cube.score), crawford=cube.crawford,
                        jacoby=cube.jacoby, beaver=cube.beaver, max_cube=cube.max_cube)


def cube_of(request: Any, parsed: positions.Parsed) -> Optional[Any]:
    """The cube state a request names: its ``cube``, else the one its position text or JSON records (an
    XGID, a gnubg ID with its Match ID, a FIBS board, a JSON position with a cube, match length or score),
    seen from the player on roll; None when neither names one (cubeless)."""
    if request.cube is not None:
        return cube_in(request.cube)
    if parsed.info is None:
        return None
    source = next(f for f in ("position", "xgid", "gnubg_id", "fibs") if getattr(request, f, None) is not None)
    return checked_cube(source, **cube_from_info(parsed.info))


def checked_cube(field: str, **fields: Any) -> Any:
    try:
        return cube_state(**fields)
    except ValueError as e:
        raise BadInput(f"{field}: {e}") from None


def cube_out(cube: Any) -> CubeOut:
    return CubeOut(value=cube.value, owner=cube.owner, match_length=cube.match_length, score=list(cube.score),
                   crawford=cube.crawford, jacoby=cube.jacoby, beaver=cube.beaver, max_cube=cube.max_cube,
                   is_money=cube.is_money, is_post_crawford=cube.is_post_crawford, may_double=cube.may_double,
                   description=str(cube))


def probabilities(evaluation: Any) -> Probabilities:
    return Probabilities(
        win=evaluation.win,
        win_gammon=evaluation.win_gammon,
        win_backgammon=evaluation.win_backgammon,
        lose_gammon=evaluation.lose_gammon,
        lose_backgammon=evaluation.lose_backgammon,
    )


async def engine_call(pool: EnginePool, position: Any, ply: int, call: Callable[[Any], Any],
                      field: str = "engine") -> tuple[Any, float]:
    """``call(engine)`` on a worker with that worker's engine for the position and ply; answers the
    result and the seconds it took. The engine's ValueError (bad input it found) becomes a 422, its
    message after ``field`` (the request field at fault, where only one can be). The engine is made
    with the call's cancel token, so a search past the time limit stops and frees its worker."""
    token = tavla.CancelToken()

    def work():
        engine = pool.engine(position, ply).with_cancel(token)
        try:
            return call(engine)
        except ValueError as e:
            raise BadInput(f"{field}: {e}") from None

    return await pool.run(work, token)


def add_routes(app: FastAPI, settings: Settings) -> None:
    pool: EnginePool = app.state.pool

    @app.get("/", include_in_schema=False)
    async def board():
        return FileResponse(STATIC / "index.html")

    @app.get("/v1/health", response_model=HealthOut, tags=["service"])
    async def health():
        return HealthOut(status="ok", engine=True, workers=settings.workers, busy=pool.busy)

    @app.get("/v1/version", response_model=VersionOut, tags=["service"])
    async def version():
        return VersionOut(
            tavla=tavla.__version__,
            api=API_VERSION,
            variants=list(tavla.VARIANTS + tavla.RESERVE_VARIANTS),
            formats=positions.available_formats(),
            default_ply=settings.default_ply,
            max_ply=settings.max_ply,
            time_limit_s=settings.time_limit,
        )

    @app.post("/v1/moves", response_model=MovesOut, responses=BAD_INPUT, tags=["moves"])
    async def legal_moves(request: MovesRequest):
        """Every legal play of a position and roll, with the resulting positions."""
        parsed = parse_source(request)
        d1, d2 = roll_for(parsed, request.dice)
        try:
            moves = parsed.position.legal_moves(d1, d2)
        except ValueError as e:
            raise BadInput(str(e)) from None
        out = [move_out(m) for m in moves]
        return MovesOut(variant=parsed.position.variant, position=position_out(parsed.position), dice=[d1, d2],
                        count=len(out), moves=out)

    @app.post("/v1/cascade-step", response_model=CascadeStepOut, responses=BAD_INPUT, tags=["moves"])
    async def cascade_step(request: CascadeStepRequest):
        """The legal plays of one gul bara cascade step: up to ``count`` moves of ``die``, with maximal
        usage inside the step (RULES.md 4). Each play tells how many moves it played; fewer than
        ``count`` ends the player's part of the cascade."""
        position = parse_source(request).position
        if position.variant != "gulbara":
            raise BadInput(f"cascade steps belong to gul bara, not {position.variant}")
        try:
            moves = position.legal_cascade_step(request.die, request.count, request.head_used)
        except ValueError as e:
            raise BadInput(str(e)) from None
        return CascadeStepOut(variant=position.variant, position=position_out(position), die=request.die,
                              count=request.count, moves=[move_out(m) for m in moves])

    @app.post(TURN, response_model=TurnOut, responses=TURN_ERRORS, tags=["game"])
    def turn(request: TurnRequest):
        """A game one action at a time, played by ``tavla.Game`` (the engine's turn driver): send the game
        record the previous answer returned (or ``new``, a new game from the start or from a position) and
        an action: ``roll`` two dice, ``play`` a legal move (its index in ``moves``, or its notation) or
        ``plays`` several in order (a gul bara cascade part or share, as ``/v1/engine-move`` or
        ``/v1/handover`` answers it). The answer is the new record with everything needed to draw the game
        and act next: the phase, whose turn it is, the position from that player's side, the dice, the legal
        moves, the cascade step and what is left of it (RULES.md 4), the rolls (``rolls_before`` is what
        ``/v1/hint`` and ``/v1/engine-move`` take) and the result. The service keeps no game between
        requests. A broken record, an illegal move or an action the game's phase does not allow answers 422
        naming the field and the reason."""
        return play_turn(request)

    @app.post(MATCH_TURN, response_model=MatchTurnOut, responses=MATCH_ERRORS, tags=["game"])
    def match_turn(request: MatchTurnRequest):
        """A match (``match_length`` 1 to 64) or a money session (``match_length`` 0) with the doubling cube,
        one action at a time, played by ``tavla.Match``: send the match record the previous answer returned (or
        ``new``, a new match with its settings: match length, Crawford rule, Jacoby, beaver, the cube's limit
        and the variant's rule options) and an action: ``roll``, ``play`` or ``plays`` as ``/v1/turn`` takes
        them, ``double``, ``take``, ``beaver``, ``drop`` (pass) or ``next_game``. The answer carries the game as
        ``/v1/turn`` answers it and the match: the score, the Crawford game and post-Crawford, the cube's value
        and owner, whether the player on turn may double now and why not, the actions the game takes now, the
        game's result in points and the match's winner. ``cube_state`` is the cube seen from the player on turn,
        to send as ``cube`` to ``/v1/cube``, ``/v1/hint`` and ``/v1/engine-move``. The service keeps no match
        between requests. A broken record or an action the rules refuse answers 422 naming the field and the
        reason."""
        return play_match_turn(request)

    @app.post("/v1/position", response_model=PositionInfo, responses=BAD_INPUT, tags=["moves"])
    async def read_position(request: PositionRequest):
        """Read a position (plain form, XGID or GNU Backgammon ID) and answer it in the plain form."""
        parsed = parse_source(request)
        position = parsed.position
        return PositionInfo(position=position_out(position), dice=list(parsed.dice) if parsed.dice else None,
                            pips=list(position.pip_count()), off=list(position.off), game_over=position.is_game_over())

    @app.post("/v1/hint", response_model=HintOut, responses={**BAD_INPUT, **ENGINE_ERRORS}, tags=["engine"])
    async def hint(request: HintRequest):
        """The best plays of a position and roll, ranked by equity. In gul bara a double past the game's first
        rolls (see ``rolls``) cascades: each candidate is then the mover's whole part of the cascade, its
        numbers' steps in ``move.cascade_steps`` and what it passes to the opponent in ``move.handover``
        (valued with the opponent's best share of it; ``/v1/handover`` answers that share)."""
        parsed = parse_source(request)
        d1, d2 = roll_for(parsed, request.dice)
        ply = checked_ply(request.ply, settings)
        if request.top > settings.max_top:
            raise BadInput(f"top {request.top} is above this service's maximum {settings.max_top}")
        position = parsed.position
        cube = cube_of(request, parsed)
        candidates, seconds = await engine_call(
            pool, position, ply,
            lambda engine: engine.hint(position, d1, d2, top=request.top, cube=cube, rolls=request.rolls))
        # diff is computed here, from the equities, so that it means the same whatever the engine
        # reports; ply is passed on when the engine says at which ply it judged each play.
        best = candidates[0].equity if candidates else 0.0
        out = [
            CandidateOut(rank=k, move=move_out(c.move), equity=c.equity, diff=c.equity - best,
                         ply=getattr(c, "ply", None), probabilities=probabilities(c.evaluation),
                         mwc=getattr(c, "mwc", None))
            for k, c in enumerate(candidates, 1)
        ]
        return HintOut(variant=position.variant, dice=[d1, d2], ply=ply, cubeful=cube is not None,
                       cube=cube_out(cube) if cube is not None else None, candidates=out, time_ms=seconds * 1000)

    @app.post("/v1/evaluate", response_model=EvaluateOut, responses={**BAD_INPUT, **ENGINE_ERRORS}, tags=["engine"])
    async def evaluate(request: EvaluateRequest):
        """Cubeless probabilities and equity of a position, for the player on roll (before rolling)."""
        position = parse_source(request).position
        ply = checked_ply(request.ply, settings)
        evaluation, seconds = await engine_call(pool, position, ply, lambda engine: engine.evaluate(position))
        return EvaluateOut(variant=position.variant, ply=ply, probabilities=probabilities(evaluation),
                           equity=evaluation.equity, time_ms=seconds * 1000)

    @app.post("/v1/engine-move", response_model=EngineMoveOut, responses={**BAD_INPUT, **ENGINE_ERRORS},
              tags=["engine"])
    async def engine_move(request: EngineMoveRequest):
        """The play the engine chooses for a position and roll (a gul bara cascade as a whole part, as
        ``/v1/hint`` answers it)."""
        parsed = parse_source(request)
        d1, d2 = roll_for(parsed, request.dice)
        ply = checked_ply(request.ply, settings)
        position = parsed.position
        cube = cube_of(request, parsed)
        move, seconds = await engine_call(pool, position, ply,
                                          lambda engine: engine.best_move(position, d1, d2, cube=cube,
                                                                           rolls=request.rolls))
        return EngineMoveOut(variant=position.variant, dice=[d1, d2], ply=ply, cubeful=cube is not None,
                             cube=cube_out(cube) if cube is not None else None, move=move_out(move),
                             time_ms=seconds * 1000)

    @app.post("/v1/handover", response_model=HandoverOut, responses={**BAD_INPUT, **ENGINE_ERRORS},
              tags=["engine"])
    async def handover(request: HandoverRequest):
        """The opponent's best play of a gul bara cascade's handover: ``position`` is seen from the player
        who plays the share (the cascade mover's opponent: flip the mover's ``move.position``), ``handover``
        the ``move.handover`` list of a hint or engine move. The share is chosen by the engine's evaluation
        of the position after it, where that player rolls next."""
        position = parse_source(request).position
        if position.variant != "gulbara":
            raise BadInput(f"handover: a handover belongs to a gul bara cascade, not {position.variant}")
        ply = checked_ply(request.ply, settings)
        given = [(die, count) for die, count in request.handover]
        share, seconds = await engine_call(pool, position, ply, lambda engine: engine.handover(position, given),
                                           field="handover")
        return HandoverOut(variant=position.variant, ply=ply, handover=[list(h) for h in given],
                           move=move_out(share), time_ms=seconds * 1000)

    @app.post("/v1/cube", response_model=CubeDecisionOut, responses={**BAD_INPUT, **ENGINE_ERRORS}, tags=["engine"])
    async def cube_decision(request: CubeRequest):
        """The cube decision of the player on roll, before its roll: the cubeful equities of no double,
        double/take and double/pass (with match winning chances in a match), the proper action and the
        opponent's proper answer. The cube state is the request's ``cube``, else the one an xgid or
        gnubg_id records (seen from the player whose turn it is), else a centered cube in money play."""
        parsed = parse_source(request)
        ply = checked_ply(request.ply, settings)
        position = parsed.position
        cube = cube_of(request, parsed)
        if cube is None:
            cube = checked_cube("cube")
        decision, seconds = await engine_call(pool, position, ply, lambda engine: engine.cube_decision(position, cube))
        mwc = decision.mwc
        return CubeDecisionOut(
            variant=position.variant, ply=decision.ply, cube=cube_out(decision.cube), action=decision.action,
            should_double=decision.should_double, should_take=decision.should_take,
            should_beaver=decision.should_beaver, no_double=decision.no_double, double_take=decision.double_take,
            double_pass=decision.double_pass, equity=decision.equity,
            mwc=None if mwc is None else CubeMwc(no_double=mwc[0], double_take=mwc[1], double_pass=mwc[2]),
            evaluation=EvaluationOut(probabilities=probabilities(decision.evaluation),
                                     equity=decision.evaluation.equity),
            double_offered=bool(parsed.info.get("double_offered")) if parsed.info is not None else False,
            time_ms=seconds * 1000,
        )
