//! `hookrt convert`.

use crate::cli::Io;

/// `hookrt convert`: stdin input is copied to a private temporary file first, so the loader
/// reads it like any other file.
pub(crate) fn convert(from: &str, to: &str, file: &str, io: Io<'_>) -> i32 {
    use crate::convert::{convert_file, Format};
    let names = "claude, codex, codex-toml, opencode, gemini, cursor, copilot, windsurf, qwen, droid, auggie, antigravity, kiro, native";
    let (Some(f), Some(t)) = (Format::parse(from), Format::parse(to)) else {
        let _ =
            writeln!(io.err, "hookrt: --from and --to take one of: {names} (and hermes, agents, cline, kimi to read)");
        return 1;
    };
    let mut _tmp = None;
    let path = if file == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            let _ = writeln!(io.err, "hookrt: cannot read stdin: {e}");
            return 1;
        }
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: {e}");
                return 1;
            }
        };
        let p = dir.path().join(f.file_name());
        if let Err(e) = std::fs::write(&p, text) {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
        _tmp = Some(dir);
        p
    } else {
        // (the loader reads it from its own folder: a relative path would be taken from there)
        std::path::absolute(file).unwrap_or_else(|_| std::path::PathBuf::from(file))
    };
    let c = convert_file(&path, f, t);
    for w in &c.warnings {
        let _ = writeln!(io.err, "warning: {w}");
    }
    if c.converted == 0 {
        let _ = writeln!(io.err, "hookrt: nothing could be converted ({} hook(s) read)", c.read);
        return 1;
    }
    let _ = write!(io.out, "{}", c.text);
    0
}
