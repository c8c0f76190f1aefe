//! The streaming writer of per-game rows (`--games-out`), which keeps
//! memory flat by writing in batches.

use mafia_engine::{Camp, EndCause};
use polars::prelude::*;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use super::columns::Cols;
use super::files::{OutFormat, create_tmp, forget_unfinished, out_format};
use super::tables::Variant;

/// One finished game, for `--games-out`.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Index into the variants given to [`GamesWriter::create`].
    pub variant: u32,
    pub seed: u64,
    pub game: u64,
    pub winner: Option<Camp>,
    pub cause: EndCause,
    pub days: u16,
    /// Role names by seat, comma-separated.
    pub deal: String,
    /// The decisions external agents' fallbacks answered (a column only
    /// when the writer was made for external agents).
    pub replaced: u32,
}

/// Rows buffered per batch; each batch is one Parquet row group.
const BATCH_ROWS: usize = 1 << 16;

/// The buffered rows of one batch, column by column.
#[derive(Default)]
struct Batch {
    variant: Vec<u32>,
    seed: Vec<u64>,
    game: Vec<u64>,
    winner: Vec<&'static str>,
    cause: Vec<&'static str>,
    days: Vec<u32>,
    deal: Vec<String>,
    /// External agents played: the `replaced` column is written.
    ext: bool,
    replaced: Vec<u32>,
}

impl Batch {
    fn len(&self) -> usize {
        self.variant.len()
    }

    fn clear(&mut self) {
        self.variant.clear();
        self.seed.clear();
        self.game.clear();
        self.winner.clear();
        self.cause.clear();
        self.days.clear();
        self.deal.clear();
        self.replaced.clear();
    }

    /// The batch as a frame: `setup, rules, agents, seed, game, winner,
    /// end_cause, days, deal`, and `replaced` when external agents played.
    fn frame(&self, variants: &[Variant]) -> PolarsResult<DataFrame> {
        let label =
            |f: fn(&Variant) -> &str| self.variant.iter().map(|&v| f(&variants[v as usize])).collect::<Vec<&str>>();
        let mut c = Cols::default();
        c.push("setup", label(|v| &v.setup));
        c.push("rules", label(|v| &v.rules));
        c.push("agents", label(|v| &v.agents));
        c.push("seed", self.seed.as_slice());
        c.push("game", self.game.as_slice());
        c.push("winner", self.winner.as_slice());
        c.push("end_cause", self.cause.as_slice());
        c.push("days", self.days.as_slice());
        c.push("deal", self.deal.as_slice());
        if self.ext {
            c.push("replaced", self.replaced.as_slice());
        }
        c.frame()
    }
}

// One sink per run: boxing the larger writer would save nothing.
#[allow(clippy::large_enum_variant)]
enum Sink {
    Csv(polars::io::csv::write::BatchedWriter<File>),
    Parquet(polars::io::parquet::write::BatchedWriter<BufWriter<File>>),
}

/// Streaming writer of per-game rows (`--games-out`), constant memory: rows
/// are pushed and written in batches of 65,536. Call [`GamesWriter::finish`]
/// at the end: a Parquet file is unreadable without its footer.
///
/// Columns: `setup, rules, agents` (strings), `seed` (u64), `game` (u64),
/// `winner` (`town`, `mafia`, `bandits` or `draw`), `end_cause` (an
/// [`EndCause`] name), `days` (u32), `deal` (role names by seat,
/// comma-separated), and when external agents play, `replaced` (u32: the
/// game's decisions their fallbacks answered).
pub struct GamesWriter {
    path: PathBuf,
    /// The temporary file the rows go to; `None` once renamed.
    tmp: Option<PathBuf>,
    variants: Vec<Variant>,
    sink: Sink,
    batch: Batch,
}

impl GamesWriter {
    /// Creates the file; the format comes from the extension (see
    /// [`out_format`]). `ext`: external agents play, and each row says how
    /// many of its decisions their fallbacks answered (`replaced`).
    pub fn create(path: &Path, variants: &[Variant], ext: bool) -> Result<GamesWriter, String> {
        let format = out_format(path)?;
        let batch = Batch { ext, ..Batch::default() };
        let schema =
            batch.frame(variants).map_err(|e| format!("cannot write {}: {e}", path.display()))?.schema().clone();
        // Rows go to a fresh temporary file (see `create_tmp`), renamed
        // over the target by `finish` and removed if the writer is dropped
        // unfinished: the file is whole or absent.
        let (file, tmp) = create_tmp(path)?;
        let sink = match format {
            OutFormat::Csv => CsvWriter::new(file).include_header(true).batched(&schema).map(Sink::Csv),
            OutFormat::Parquet => ParquetWriter::new(BufWriter::new(file)).batched(&schema).map(Sink::Parquet),
        }
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(GamesWriter { path: path.to_path_buf(), tmp: Some(tmp), variants: variants.to_vec(), sink, batch })
    }

    /// Buffers one row; writes a batch every 65,536 rows.
    pub fn push(&mut self, row: GameRow) -> Result<(), String> {
        if row.variant as usize >= self.variants.len() {
            return Err(format!(
                "cannot write {}: a game of variant {} but only {} variants are known",
                self.path.display(),
                row.variant,
                self.variants.len()
            ));
        }
        let b = &mut self.batch;
        b.variant.push(row.variant);
        b.seed.push(row.seed);
        b.game.push(row.game);
        b.winner.push(row.winner.map_or("draw", Camp::name));
        b.cause.push(row.cause.name());
        b.days.push(row.days as u32);
        b.deal.push(row.deal);
        b.replaced.push(row.replaced);
        if b.len() >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.batch.len() == 0 {
            return Ok(());
        }
        let df = self.batch.frame(&self.variants);
        let result = df.and_then(|df| match &mut self.sink {
            Sink::Csv(w) => w.write_batch(&df),
            Sink::Parquet(w) => w.write_batch(&df),
        });
        self.batch.clear();
        result.map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// Writes the last rows and closes the file (the Parquet footer).
    pub fn finish(mut self) -> Result<(), String> {
        self.flush()?;
        let result = match &mut self.sink {
            Sink::Csv(w) => w.finish(),
            Sink::Parquet(w) => w.finish().map(|_| ()),
        };
        result.map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        let tmp = self.tmp.clone().expect("finished once");
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        // fsync through a second handle flushes the file's data all the same.
        File::open(&tmp).and_then(|f| f.sync_all()).map_err(fail)?;
        std::fs::rename(&tmp, &self.path).map_err(fail)?;
        forget_unfinished(&tmp);
        self.tmp = None;
        Ok(())
    }
}

impl Drop for GamesWriter {
    /// A writer dropped unfinished (an error, a failed rename) removes its
    /// temporary file: nothing half-written is left behind.
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(&tmp);
            forget_unfinished(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::test_util::{read, str_at, temp_dir, u64_at, variant};

    fn games_round_trip(ext: &str) {
        let dir = temp_dir(&format!("games-{ext}"));
        let path = dir.join(format!("games.{ext}"));
        let variants = [variant("classic-7", "", 7), variant("classic-10", "absence=0.1", 10)];
        let mut w = GamesWriter::create(&path, &variants, false).unwrap();
        let n = 150_000u64;
        for i in 0..n {
            w.push(GameRow {
                variant: (i % 2) as u32,
                seed: 42,
                game: i,
                winner: match i % 3 {
                    0 => Some(Camp::Town),
                    1 => Some(Camp::Mafia),
                    _ => None,
                },
                cause: if i % 3 == 2 { EndCause::DayCap } else { EndCause::Parity },
                days: (i % 7 + 1) as u16,
                deal: "citizen,don,commissar".into(),
                replaced: 0,
            })
            .unwrap();
        }
        w.finish().unwrap();
        let df = read(&path);
        assert_eq!(df.height(), n as usize);
        let cols: Vec<String> = df.get_column_names().iter().map(|c| c.to_string()).collect();
        assert_eq!(cols, ["setup", "rules", "agents", "seed", "game", "winner", "end_cause", "days", "deal"]);
        // Row 149_999: variant 1, 149_999 % 3 = 2 (a draw), days 149_999 % 7 + 1 = 4.
        let last = n as usize - 1;
        assert_eq!(u64_at(&df, "game", last), n - 1);
        assert_eq!(str_at(&df, "setup", last), "classic-10");
        assert_eq!(str_at(&df, "winner", last), "draw");
        assert_eq!(str_at(&df, "end_cause", last), "day_cap");
        assert_eq!(u64_at(&df, "days", last), 4);
        // A row of the first batch.
        assert_eq!(str_at(&df, "winner", 4), "mafia");
        assert_eq!(str_at(&df, "deal", 4), "citizen,don,commissar");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn games_writer_csv() {
        games_round_trip("csv");
    }

    #[test]
    fn games_writer_parquet() {
        games_round_trip("parquet");
    }

    #[test]
    fn games_writer_rejects_an_unknown_variant() {
        let dir = temp_dir("games-bad");
        let path = dir.join("games.pq");
        let mut w = GamesWriter::create(&path, &[variant("classic-7", "", 7)], false).unwrap();
        let row = GameRow {
            variant: 1,
            seed: 1,
            game: 0,
            winner: None,
            cause: EndCause::DayCap,
            days: 3,
            deal: String::new(),
            replaced: 0,
        };
        let e = w.push(row).unwrap_err();
        assert!(e.contains("games.pq") && e.contains("variant 1"), "{e}");
        w.finish().unwrap();
        assert_eq!(read(&path).height(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
