//! `connectk quarto check-proof`: replay a proof certificate and accept or refute it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use connectk::quarto::check::{self, CheckError, CheckProgress};

/// Check a proof certificate by replaying it against every reply.
///
/// Check a proof certificate (written by `connectk quarto certify`): each strategy it needs is
/// replayed against every legal reply by the rules of play alone, with no solver. Exit status
/// 0 when the proof holds, 1 with the refuting line when it does not, 2 when the file is not
/// a certificate.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The certificate file.
    file: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let bar = crate::cli::progress::status()?;
    let progress = |event: CheckProgress| match event {
        CheckProgress::Reading { strategy, entries } => {
            bar.set_message(format!("strategy {strategy}: {entries} entries read"));
        }
        CheckProgress::Replaying {
            strategy,
            positions,
        } => bar.set_message(format!(
            "strategy {strategy}: {positions} positions replayed"
        )),
    };
    let input = std::io::BufReader::with_capacity(1 << 20, file);
    let verdict = check::check_reader(input, &progress);
    bar.finish_and_clear();
    match verdict {
        Ok(verdict) => {
            outln!(
                "proof accepted: {}: {} ({} positions replayed)",
                verdict.rules,
                verdict.claim.label(),
                verdict.positions
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(CheckError::Refuted(refuted)) => {
            errln!("{}: {refuted}", args.file.display());
            Ok(ExitCode::FAILURE)
        }
        Err(CheckError::Malformed(malformed)) => {
            Err(malformed).with_context(|| args.file.display().to_string())
        }
    }
}
