//! The one error type of the crate: a message that names what is wrong.
//!
//! Everything a user can get wrong (a malformed position, impossible dice, an
//! unknown option) comes back as an [`Error`]; the Python layer turns it into
//! `ValueError` with the same text.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error { message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
