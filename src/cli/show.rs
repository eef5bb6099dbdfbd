use crate::notation::ascii;

pub fn run(position: &str) -> anyhow::Result<()> {
    let setup = super::setup_arg(position)?;
    print!("{}", ascii::render(&setup));
    Ok(())
}
