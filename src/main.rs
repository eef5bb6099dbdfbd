use clap::Parser;

fn main() {
    kotra::cli::install_panic_hook();
    let cli = match kotra::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => std::process::exit(kotra::cli::report_parse_error(&e)),
    };
    std::process::exit(kotra::cli::run(cli));
}
