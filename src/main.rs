use clap::Parser;

fn main() {
    kotra::cli::install_panic_hook();
    let cli = kotra::cli::Cli::parse();
    std::process::exit(kotra::cli::run(cli));
}
