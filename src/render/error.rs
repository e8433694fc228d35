//! Why an image could not be made: the one error type of render/ (a leaf, so that the layout
//! loader and the painter can name it without depending on the renderer that uses them).

/// Why an image could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("font {font} cannot be read: {message}")]
    Font { font: String, message: String },
    #[error("layout.toml: {message}")]
    Layout { message: String },
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(usize),
    #[error("the private image of seat {seat} needs that seat's own view")]
    NotOwnView { seat: usize },
    #[error("the image cannot be encoded as PNG: {0}")]
    Encode(String),
    #[error("the view cannot be hashed: {0}")]
    Hash(String),
}
