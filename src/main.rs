//! The `skymines` binary: see `skymines help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = skymines::cli::run(&args, &mut std::io::stdout());
    std::process::exit(code);
}
