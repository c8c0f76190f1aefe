//! Helpers of the output tests: labels, a fresh folder, reading a table back.

use super::files::{OutFormat, out_format};
use super::tables::Variant;
use polars::prelude::*;
use std::fs::File;
use std::path::{Path, PathBuf};

pub(super) fn variant(setup: &str, rules: &str, players: usize) -> Variant {
    Variant { setup: setup.into(), rules: rules.into(), agents: "random".into(), players }
}

pub(super) fn f64_at(df: &DataFrame, col: &str, i: usize) -> f64 {
    df.column(col).unwrap().get(i).unwrap().extract::<f64>().unwrap()
}

pub(super) fn u64_at(df: &DataFrame, col: &str, i: usize) -> u64 {
    df.column(col).unwrap().get(i).unwrap().extract::<u64>().unwrap()
}

pub(super) fn str_at(df: &DataFrame, col: &str, i: usize) -> String {
    df.column(col).unwrap().str().unwrap().get(i).unwrap().to_string()
}

/// A fresh folder under the system temp dir.
pub(super) fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("mafia-tables-{}-{name}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(super) fn read(path: &Path) -> DataFrame {
    match out_format(path).unwrap() {
        OutFormat::Csv => CsvReadOptions::default()
            .with_has_header(true)
            .try_into_reader_with_file_path(Some(path.to_path_buf()))
            .unwrap()
            .finish()
            .unwrap(),
        OutFormat::Parquet => ParquetReader::new(File::open(path).unwrap()).finish().unwrap(),
    }
}
