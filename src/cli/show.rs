use crate::notation::ascii;

pub fn run(position: &str) -> anyhow::Result<()> {
    let setup = super::setup_to_show(position)?;
    print!("{}", ascii::render(&setup));
    Ok(())
}
