use clap::Parser;

fn main() {
    let cli = kotra::cli::Cli::parse();
    std::process::exit(kotra::cli::run(cli));
}
