pub fn movegen(_positions: Option<&std::path::Path>, _seconds: f64) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
