//! The package's exceptions, and which one each engine error becomes.
//!
//! `sapper.Error` is a `ValueError`, so code that caught `ValueError` keeps
//! working; its subclasses tell apart what went wrong:
//!
//! - `sapper.InputError`: the input describes no board, or an argument is
//!   out of range (a code, a shape, a total below the flags, a name);
//! - `sapper.ContradictionError`: a well-formed position no mine layout
//!   fits;
//! - `sapper.BudgetError`: an exact computation would exceed the engine's
//!   time or memory budget (refused, not answered wrongly).
//!
//! Other refusals (no no-guess board within the attempts allowed, an
//! accuracy that cannot be guaranteed) are `sapper.Error` itself. A value
//! of the wrong type is a `TypeError`, as everywhere in Python.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sapper_engine::Error as EngineError;

pyo3::create_exception!(
    sapper,
    Error,
    PyValueError,
    "Raised when sapper cannot answer: bad input, a position no layout fits, a \
     computation over budget (a ValueError)."
);
pyo3::create_exception!(
    sapper,
    InputError,
    Error,
    "The input describes no board, or an argument is out of range."
);
pyo3::create_exception!(
    sapper,
    ContradictionError,
    Error,
    "No mine layout fits the position."
);
pyo3::create_exception!(
    sapper,
    BudgetError,
    Error,
    "An exact computation would exceed the engine's time or memory budget."
);

/// The Python exception of an engine error, with the engine's message.
pub fn engine_error(e: impl Into<EngineError>) -> PyErr {
    let e = e.into();
    let message = e.to_string();
    match e {
        EngineError::Format(_)
        | EngineError::Input(_)
        | EngineError::Level(_)
        | EngineError::NoMineCount => InputError::new_err(message),
        EngineError::Contradiction { .. } => ContradictionError::new_err(message),
        EngineError::OverBudget(_) => BudgetError::new_err(message),
        _ => Error::new_err(message),
    }
}

/// An `InputError` with `message`.
pub fn input_error(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("ContradictionError", py.get_type::<ContradictionError>())?;
    m.add("BudgetError", py.get_type::<BudgetError>())?;
    Ok(())
}
