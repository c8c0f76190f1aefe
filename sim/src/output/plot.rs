//! Report plots as SVG text, drawn with the `plotters` crate (SVG backend only,
//! no system fonts: text is emitted as SVG `<text>` elements in the
//! `sans-serif` family and laid out with plotters' naive size estimate).
//!
//! Every chart is meant to be read without the code that made it: a title,
//! a subtitle (the setup, the lineup and the number of games, given by the
//! caller and wrapped to the chart's width), axis labels in words with
//! their units, and a footer of notes the chart writes itself: what the
//! error bars are, when the 95% intervals are too small to see beside the
//! markers, which markers have a one-sided interval (a rate of 0% or 100%:
//! Wilson's interval has a single bound there, drawn as a whisker on one
//! side only and the marker hollow), and which colour is which camp. The
//! camps have fixed colours in every chart ([`camp_rgb`]): the town blue,
//! the mafia vermillion, the bandits bluish green; data of no camp is drawn
//! in the other colours of the palette.
//!
//! Three kinds of chart are drawn:
//!
//! * [`line_chart`]: one coloured line per [`Series`] with a distinct marker
//!   shape per series, each point's 95% interval as a vertical error bar, a
//!   legend to the right of the plot (outside it, so it never hides data), an
//!   optional dashed horizontal reference line, optional percentage y labels.
//! * [`bar_chart`]: horizontal bars (one per labelled [`Bar`]) from 0 to the
//!   value, negative values allowed (drawn in a second colour), the interval
//!   as an error bar, the value written next to each bar, an optional dashed
//!   vertical reference line.
//! * [`heatmap`]: a grid of cells on a diverging colour scale centred on
//!   [`Heatmap::centre`] over the value range 0..1, `None` cells grey, with an
//!   optional percentage in each cell and a colour bar.
//!
//! All functions take plain data and return the SVG document as a `String`,
//! or an error message. They never panic on odd input: non-finite numbers
//! (NaN, ±inf) and inconsistent shapes are refused with an `Err` naming the
//! offending item; charts with no data at all (no points, no bars, no rows or
//! columns) are refused with an `Err` too, rather than drawing an empty frame.
//! A single point or all-equal values are fine (the axis range is widened).
//!
//! The output is byte-identical for identical input: nothing depends on time,
//! randomness, hash-map order or the machine's fonts.
//!
//! Colours are the Okabe–Ito colour-blind-friendly palette.

pub use mafia_engine::Camp;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// One point of a line: `y` with its 95% interval `[lo, hi]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Point {
    /// Where on the x axis.
    pub x: f64,
    /// The value.
    pub y: f64,
    /// The interval's lower end.
    pub lo: f64,
    /// The interval's upper end.
    pub hi: f64,
}

/// A named line of points.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// The legend's text.
    pub label: String,
    /// The points, left to right.
    pub points: Vec<Point>,
    /// The camp whose figure the line is: drawn in the camp's colour (several
    /// lines of one camp in shades of it, told apart by their markers).
    /// `None`: a colour of no camp.
    pub camp: Option<Camp>,
}

/// A line chart with error bars.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    /// The chart's title.
    pub title: String,
    /// Under the title, smaller: the setup, the lineup and the number of
    /// games (wrapped to the chart's width, at most three lines). Empty: none.
    pub subtitle: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// `None`: fit the data including the intervals (and the reference line),
    /// with a small margin. `Some((lo, hi))`: use this range; anything outside
    /// it is clamped to its edge.
    pub y_range: Option<(f64, f64)>,
    /// A horizontal dashed line with its label, e.g. `(0.5, "fair")`.
    pub reference: Option<(f64, String)>,
    /// y tick labels as percentages (0.5 -> "50%").
    pub percent: bool,
    /// y values are differences of rates, labelled in percentage points
    /// (0.05 -> "5", no `%` sign); takes precedence over `percent`.
    pub points: bool,
    /// x tick labels as percentages (0.1 -> "10%").
    pub x_percent: bool,
}

/// One bar: `value` with its 95% interval `[lo, hi]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bar {
    /// The bar's label.
    pub label: String,
    /// The value.
    pub value: f64,
    /// The interval's lower end.
    pub lo: f64,
    /// The interval's upper end.
    pub hi: f64,
    /// The camp the bar is about: drawn in the camp's colour, with a legend
    /// of the camps under the chart. `None`: grey.
    pub camp: Option<Camp>,
}

/// A horizontal bar chart; bars are listed top to bottom in the given order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarChart {
    /// The chart's title.
    pub title: String,
    /// Under the title: the setup, the lineup and the number of games.
    pub subtitle: String,
    /// Label of the value axis (drawn horizontally, under the bars).
    pub y_label: String,
    /// The bars, top to bottom.
    pub bars: Vec<Bar>,
    /// A vertical dashed line at this value with its label, e.g. `(0.0, "no difference")`.
    pub reference: Option<(f64, String)>,
    /// Value labels as percentages (0.5 -> "50%").
    pub percent: bool,
    /// Values are differences of rates in percentage points (0.05 -> "+5.0");
    /// takes precedence over `percent`.
    pub points: bool,
}

/// A heatmap of values in 0..1; `cells[y][x]`, rows listed top to bottom.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Heatmap {
    /// The chart's title.
    pub title: String,
    /// Under the title: the setup, the lineup and the number of games.
    pub subtitle: String,
    /// The x axis's label (the columns' axis).
    pub x_label: String,
    /// The y axis's label (the rows' axis).
    pub y_label: String,
    /// The columns' labels, left to right.
    pub xs: Vec<String>,
    /// The rows' labels, top to bottom.
    pub ys: Vec<String>,
    /// `cells[y][x]`; `None` = not played (drawn grey, no annotation).
    pub cells: Vec<Vec<Option<f64>>>,
    /// Centre of the diverging colour scale (e.g. 0.5 = fair); must lie in 0..=1.
    pub centre: f64,
    /// Write each cell's value as a percentage (skipped when cells are too small).
    pub annotate: bool,
    /// Half-widths of the cells' 95% intervals, `half[y][x]` (empty: none);
    /// written under each annotated value as `±x.x`.
    pub half: Vec<Vec<Option<f64>>>,
    /// The cells' 95% intervals `(lo, hi)`, `bounds[y][x]` (empty: none); when
    /// given they are used instead of `half`: `±x.x` for a two-sided
    /// interval, `≥x.x` or `≤x.x` for a one-sided one (a value at an end of
    /// its interval, as a rate of 100% or 0% is).
    pub bounds: Vec<Vec<Option<(f64, f64)>>>,
    /// The camp whose rate the cells are: above `centre` in the camp's
    /// colour, below it in its opponent's (the town's and the mafia's are
    /// each other's; the bandits' is grey). `None`: blue above, vermillion
    /// below.
    pub camp: Option<Camp>,
}

// ---------------------------------------------------------------------------
// Style constants

const FONT: &str = "sans-serif";
// Sizes as given to plotters; the SVG backend writes font-size = size / 1.24.
const TITLE_SIZE: f64 = 24.0;
const DESC_SIZE: f64 = 17.0;
const LABEL_SIZE: f64 = 15.0;
const SMALL_SIZE: f64 = 14.0;

const WIDTH: u32 = 800;
/// Series with more points than this are drawn without markers.
const MAX_MARKED: usize = 24;
/// Most bars, or heatmap rows/columns, drawn in one chart.
const MAX_ITEMS: usize = 500;
const HEIGHT: u32 = 500;

/// Okabe–Ito palette, reordered so that the weakest colour on white (yellow) comes last.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
    RGBColor(240, 228, 66),  // yellow
];
/// Colours of data that is no camp's, after the camps' own three.
const OTHER: [RGBColor; 5] = [PALETTE[6], PALETTE[3], PALETTE[4], PALETTE[5], PALETTE[7]];
/// Bars of no camp.
const NO_CAMP: RGBColor = RGBColor(120, 120, 120);
/// The subtitle's and the notes' ink.
const QUIET: RGBColor = RGBColor(70, 70, 70);
const SUB_SIZE: f64 = 16.0;
const SUB_LINE: i32 = 19;
const NOTE_SIZE: f64 = 14.0;
const NOTE_LINE: i32 = 18;
/// Space between the x axis's label and the notes under it.
const FOOT_GAP: i32 = 12;
/// The markers' size in pixels: an interval shorter than this hides behind its marker.
const MARKER_PX: i32 = 11;
const GRID: RGBColor = RGBColor(225, 225, 225);
const REF_COLOUR: RGBColor = RGBColor(80, 80, 80);
const MISSING: RGBColor = RGBColor(210, 210, 210);
const NEUTRAL: RGBColor = RGBColor(247, 247, 247);

// ---------------------------------------------------------------------------
// Camps

/// A camp's colour, the same in every chart (Okabe–Ito): the town blue
/// (0, 114, 178), the mafia vermillion (213, 94, 0), the bandits bluish
/// green (0, 158, 115).
pub const fn camp_rgb(camp: Camp) -> (u8, u8, u8) {
    let c = camp_colour(camp);
    (c.0, c.1, c.2)
}

/// A camp's colour as CSS hex (`#0072b2`), for pages that draw beside the charts.
pub fn camp_hex(camp: Camp) -> String {
    let (r, g, b) = camp_rgb(camp);
    format!("#{r:02x}{g:02x}{b:02x}")
}

const fn camp_colour(camp: Camp) -> RGBColor {
    match camp {
        Camp::Town => PALETTE[0],
        Camp::Mafia => PALETTE[1],
        Camp::Bandits => PALETTE[2],
    }
}

/// Shade `k` of `m` of one colour: darker first, lighter last, the colour
/// itself for a single line.
fn shade(c: RGBColor, k: usize, m: usize) -> RGBColor {
    if m <= 1 {
        return c;
    }
    let t = k as f64 / (m - 1) as f64;
    if t < 0.5 { lerp(c, BLACK, (0.5 - t) * 0.9) } else { lerp(c, WHITE, (t - 0.5) * 1.1) }
}

/// The colours of a chart's lines: each camp's lines in shades of its colour,
/// lines of no camp in the other colours, in order.
fn series_colours(series: &[Series]) -> Vec<RGBColor> {
    let mut other = 0;
    series
        .iter()
        .enumerate()
        .map(|(si, s)| match s.camp {
            Some(camp) => {
                let same: Vec<usize> = (0..series.len()).filter(|&j| series[j].camp == Some(camp)).collect();
                let k = same.iter().position(|&j| j == si).unwrap_or(0);
                shade(camp_colour(camp), k, same.len())
            }
            None => {
                other += 1;
                OTHER[(other - 1) % OTHER.len()]
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Helpers

fn pe<E: std::fmt::Debug>(e: E) -> String {
    format!("plotting failed: {e:?}")
}

fn finite(what: &str, v: f64) -> Result<(), String> {
    if v.is_finite() { Ok(()) } else { Err(format!("{what} is not a finite number ({v})")) }
}

/// Rough rendered width in pixels of `s` at plotters font size `size`
/// (a bit more generous than plotters' own estimate, to leave room in browsers).
fn est_w(size: f64, s: &str) -> i32 {
    (size / 1.24 * 0.62 * s.chars().count() as f64).ceil() as i32
}

/// Shorten a label to at most `max` characters, ending in an ellipsis.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 2.5 {
        2.5
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// "Nice" tick positions covering `[lo, hi]` (about `target` of them) and their step.
fn nice_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    let span = hi - lo;
    if !span.is_finite() || span <= 0.0 {
        return (vec![lo], 1.0);
    }
    let step = nice_step(span, target);
    if !step.is_finite() || step <= 0.0 {
        return (vec![lo, hi], span);
    }
    let start = (lo / step - 1e-9).ceil();
    let end = (hi / step + 1e-9).floor();
    if start.is_nan() || end.is_nan() || end < start || end - start > 200.0 {
        return (vec![lo, hi], span);
    }
    let (start, end) = (start as i64, end as i64);
    let ticks = (start..=end)
        .map(|i| {
            let v = i as f64 * step;
            if v == 0.0 { 0.0 } else { v }
        })
        .collect();
    (ticks, step)
}

/// Number of decimals needed to show multiples of `step` (already scaled).
fn decimals_for(step: f64) -> usize {
    for d in 0..=6 {
        let s = step * 10f64.powi(d as i32);
        if (s - s.round()).abs() < 1e-6 * s.abs().max(1.0) {
            return d;
        }
    }
    6
}

/// Fixed-point formatting without a "-0".
fn fmt_fixed(v: f64, d: usize) -> String {
    let s = format!("{v:.d$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// How a value axis labels its numbers.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Plain,
    /// Rates: 0.5 -> "50%".
    Percent,
    /// Differences of rates in percentage points: 0.05 -> "5".
    Points,
}

impl Unit {
    fn of(percent: bool, points: bool) -> Unit {
        if points {
            Unit::Points
        } else if percent {
            Unit::Percent
        } else {
            Unit::Plain
        }
    }

    /// A width on this axis in words: "0.15 points", "0.002".
    fn width(self, w: f64) -> String {
        match self {
            Unit::Plain => fmt_compact(w),
            // Rounded up: a bound is never shown nearer than it is.
            _ => format!("{} points", fmt_compact((w * 100.0 * 100.0).ceil() / 100.0)),
        }
    }
}

#[cfg(test)]
/// Tick label formatter for a value axis with the given tick step.
fn tick_label(v: f64, step: f64, percent: bool) -> String {
    tick_text(v, step, Unit::of(percent, false))
}

fn tick_text(v: f64, step: f64, unit: Unit) -> String {
    match unit {
        Unit::Percent => format!("{}%", fmt_fixed(v * 100.0, decimals_for(step * 100.0))),
        Unit::Points => fmt_fixed(v * 100.0, decimals_for(step * 100.0)),
        Unit::Plain => fmt_fixed(v, decimals_for(step)),
    }
}

/// Compact label for an arbitrary value (at most 3 decimals, trailing zeros trimmed).
fn fmt_compact(v: f64) -> String {
    let s = fmt_fixed(v, 3);
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

#[cfg(test)]
/// Value label: percentages with one decimal below 10 points of range, else whole.
fn value_label(v: f64, percent: bool) -> String {
    value_text(v, Unit::of(percent, false))
}

/// A bar's value: "52.3%", "+4.1" (points, signed), "7".
fn value_text(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Percent => format!("{}%", fmt_fixed(v * 100.0, 1)),
        Unit::Points => {
            let s = fmt_fixed(v * 100.0, 1);
            if s.starts_with('-') || s == "0.0" { s } else { format!("+{s}") }
        }
        Unit::Plain => fmt_compact(v),
    }
}

/// An interval is one-sided when its value is one of its ends and the other
/// end is elsewhere: Wilson's interval of a rate of 0% or 100%.
fn one_sided(v: f64, lo: f64, hi: f64) -> bool {
    lo < hi && (v == lo || v == hi)
}

/// `s` in lines no wider than `max_px` at `size`, at most `max_lines` (the
/// last one shortened with an ellipsis if the text goes on). Lines break
/// between the parts of a ` · `-separated list where they can, else between words.
fn wrap(s: &str, size: f64, max_px: i32, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    let pack = |piece: &str, sep: &str, cur: &mut String, lines: &mut Vec<String>| {
        let next = if cur.is_empty() { piece.to_string() } else { format!("{cur}{sep}{piece}") };
        if est_w(size, &next) <= max_px || cur.is_empty() {
            *cur = next;
        } else {
            lines.push(std::mem::replace(cur, piece.to_string()));
        }
    };
    for part in s.split(" · ").map(str::trim).filter(|p| !p.is_empty()) {
        if est_w(size, part) <= max_px {
            pack(part, " · ", &mut cur, &mut lines);
        } else {
            for (i, w) in part.split_whitespace().enumerate() {
                pack(w, if i == 0 { " · " } else { " " }, &mut cur, &mut lines);
            }
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        let chars = (max_px as f64 / (size / 1.24 * 0.62)) as usize;
        let last = lines.pop().unwrap_or_default();
        lines.push(shorten(&format!("{last} …"), chars.max(2)));
    }
    lines
}

/// One piece of a note line: words, or a colour swatch before the next words.
enum Seg {
    Text(String),
    Swatch(RGBColor),
}

/// The title and the subtitle's lines at the top of `root`; returns the area under them.
fn header<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    title: &str,
    subtitle: &[String],
) -> Result<DrawingArea<SVGBackend<'a>, Shift>, String> {
    let (w, _) = root.dim_in_pixel();
    let mid = w as i32 / 2;
    root.draw(&Text::new(title.to_string(), (mid, 10), text_style(TITLE_SIZE, BLACK, HPos::Center, VPos::Top)))
        .map_err(pe)?;
    let mut y = 40;
    for line in subtitle {
        root.draw(&Text::new(line.clone(), (mid, y), text_style(SUB_SIZE, QUIET, HPos::Center, VPos::Top)))
            .map_err(pe)?;
        y += SUB_LINE;
    }
    Ok(root.split_vertically(y + 6).1)
}

fn header_height(subtitle: &[String]) -> i32 {
    46 + SUB_LINE * subtitle.len() as i32
}

/// Splits `NOTE_LINE` pixels per note line off the bottom of `area`: (the rest, the footer).
fn split_footer<'a>(
    area: DrawingArea<SVGBackend<'a>, Shift>,
    lines: usize,
) -> (DrawingArea<SVGBackend<'a>, Shift>, DrawingArea<SVGBackend<'a>, Shift>) {
    let (_, h) = area.dim_in_pixel();
    area.split_vertically(h as i32 - NOTE_LINE * lines as i32 - if lines > 0 { FOOT_GAP } else { 0 })
}

/// The notes under a chart, one line each, left-aligned.
fn footer(area: &DrawingArea<SVGBackend<'_>, Shift>, notes: &[Vec<Seg>]) -> Result<(), String> {
    // Under the gap that keeps the notes off the x axis's label.
    let mut y = FOOT_GAP + NOTE_LINE / 2 - 2;
    for line in notes {
        let mut x = 14;
        for seg in line {
            match seg {
                Seg::Text(t) => {
                    area.draw(&Text::new(t.clone(), (x, y), text_style(NOTE_SIZE, QUIET, HPos::Left, VPos::Center)))
                        .map_err(pe)?;
                    x += est_w(NOTE_SIZE, t) + 8;
                }
                Seg::Swatch(c) => {
                    area.draw(&Rectangle::new([(x, y - 6), (x + 12, y + 6)], fill_style(*c))).map_err(pe)?;
                    x += 17;
                }
            }
        }
        y += NOTE_LINE;
    }
    Ok(())
}

/// "Colour: ■ town ■ mafia" for the camps that appear, in camp order.
fn camps_note(camps: impl Iterator<Item = Option<Camp>> + Clone) -> Option<Vec<Seg>> {
    let present: Vec<Camp> = Camp::ALL.into_iter().filter(|c| camps.clone().any(|x| x == Some(*c))).collect();
    if present.is_empty() {
        return None;
    }
    let mut line = vec![Seg::Text("Colour: the camp —".into())];
    for c in present {
        line.push(Seg::Swatch(camp_colour(c)));
        line.push(Seg::Text(c.name().into()));
    }
    Some(line)
}

/// Widen a degenerate range and add a relative margin.
fn padded(lo: f64, hi: f64, frac: f64) -> (f64, f64) {
    if hi > lo {
        let m = (hi - lo) * frac;
        (lo - m, hi + m)
    } else {
        let m = (lo.abs() * 0.1).max(if lo.abs() <= 1.0 { 0.05 } else { 1.0 });
        (lo - m, hi + m)
    }
}

fn check_range(what: &str, lo: f64, hi: f64) -> Result<(), String> {
    finite(&format!("{what} lower end"), lo)?;
    finite(&format!("{what} upper end"), hi)?;
    if hi <= lo {
        return Err(format!("{what} is empty: ({lo}, {hi})"));
    }
    if !(hi - lo).is_finite() {
        return Err(format!("{what} is too wide: ({lo}, {hi})"));
    }
    Ok(())
}

fn check_interval(what: &str, v: f64, lo: f64, hi: f64) -> Result<(), String> {
    finite(&format!("{what} value"), v)?;
    finite(&format!("{what} interval lower end"), lo)?;
    finite(&format!("{what} interval upper end"), hi)?;
    if lo > hi {
        return Err(format!("{what} has an inverted interval: lo {lo} > hi {hi}"));
    }
    Ok(())
}

fn line_style(c: RGBColor, w: u32) -> ShapeStyle {
    ShapeStyle { color: c.to_rgba(), filled: false, stroke_width: w }
}

fn fill_style(c: RGBColor) -> ShapeStyle {
    ShapeStyle { color: c.to_rgba(), filled: true, stroke_width: 1 }
}

fn text_style(size: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    let mut t = TextStyle::from((FONT, size).into_font()).pos(Pos::new(h, v));
    t.color = colour.to_backend_color();
    t
}

/// A linear f64 axis whose tick marks are exactly `ticks` (no light grid lines).
/// (plotters' `with_key_points` on an f64 range cannot take a label formatter in 0.3.7.)
struct TickAxis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

fn axis(lo: f64, hi: f64, ticks: Vec<f64>) -> TickAxis {
    TickAxis { lo, hi, ticks }
}

impl Ranged for TickAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let t = (v - self.lo) / (self.hi - self.lo);
        let p = limit.0 as f64 + t * (limit.1 - limit.0) as f64;
        // Saturate far-away values instead of overflowing pixel arithmetic.
        if p.is_nan() { limit.0 } else { p.round().clamp(-100_000.0, 100_000.0) as i32 }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() || hint.max_num_points() == 0 { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// Draw marker number `shape` (circle, square, triangle, diamond) at a
/// coordinate; a hollow one (white inside, the colour as its edge) marks a
/// one-sided interval.
fn draw_marker<'a, CT>(
    area: &DrawingArea<SVGBackend<'a>, CT>,
    at: CT::From,
    shape: usize,
    colour: RGBColor,
    hollow: bool,
) -> Result<(), String>
where
    CT: CoordTranslate,
    CT::From: Clone,
{
    let (fill, edge) =
        if hollow { (fill_style(WHITE), line_style(colour, 2)) } else { (fill_style(colour), line_style(WHITE, 1)) };
    match shape % 4 {
        0 => area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), 5, fill) + Circle::new((0, 0), 5, edge))),
        1 => area.draw(
            &(EmptyElement::at(at)
                + Rectangle::new([(-4, -4), (4, 4)], fill)
                + Rectangle::new([(-4, -4), (4, 4)], edge)),
        ),
        2 => area.draw(
            &(EmptyElement::at(at)
                + Polygon::new(vec![(0, -6), (5, 4), (-5, 4)], fill)
                + PathElement::new(vec![(0, -6), (5, 4), (-5, 4), (0, -6)], edge)),
        ),
        _ => area.draw(
            &(EmptyElement::at(at)
                + Polygon::new(vec![(0, -6), (6, 0), (0, 6), (-6, 0)], fill)
                + PathElement::new(vec![(0, -6), (6, 0), (0, 6), (-6, 0), (0, -6)], edge)),
        ),
    }
    .map_err(pe)
}

/// Draw a dashed segment between two points in the area's coordinates.
fn draw_dashed<'a, CT>(area: &DrawingArea<SVGBackend<'a>, CT>, from: CT::From, to: CT::From) -> Result<(), String>
where
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    for e in DashedLineSeries::new(vec![from, to], 7, 5, line_style(REF_COLOUR, 2)) {
        area.draw(&e).map_err(pe)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Line chart

/// Draw a line chart with error bars. See the module documentation.
///
/// Errors: no series or no points at all; a non-finite number anywhere; an
/// interval with `lo > hi`; an empty or non-finite `y_range`.
pub fn line_chart(c: &LineChart) -> Result<String, String> {
    let ctx = |m: String| format!("line chart '{}': {m}", c.title);

    // Validate and collect.
    let mut xs: Vec<f64> = Vec::new();
    let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
    for (si, s) in c.series.iter().enumerate() {
        for (pi, p) in s.points.iter().enumerate() {
            let what = format!("series {si} ('{}') point {pi}", s.label);
            finite(&format!("{what} x"), p.x).map_err(ctx)?;
            check_interval(&what, p.y, p.lo, p.hi).map_err(ctx)?;
            xs.push(p.x);
            ymin = ymin.min(p.lo).min(p.y);
            ymax = ymax.max(p.hi).max(p.y);
        }
    }
    if xs.is_empty() {
        return Err(ctx("no data points to plot".into()));
    }
    if let Some((r, _)) = &c.reference {
        finite("reference value", *r).map_err(ctx)?;
    }
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let (xmin, xmax) = (xs[0], xs[xs.len() - 1]);
    if !(xmax - xmin).is_finite() {
        return Err(ctx(format!("x values span too wide a range ({xmin}, {xmax})")));
    }

    // y range.
    let (y0, y1) = match c.y_range {
        Some((lo, hi)) => {
            check_range("y_range", lo, hi).map_err(ctx)?;
            (lo, hi)
        }
        None => {
            if let Some((r, _)) = &c.reference {
                ymin = ymin.min(*r);
                ymax = ymax.max(*r);
            }
            let (a, b) = padded(ymin, ymax, 0.06);
            check_range("data range", a, b).map_err(ctx)?;
            (a, b)
        }
    };
    let clamp_y = |v: f64| v.clamp(y0, y1);
    let (y_ticks, y_step) = nice_ticks(y0, y1, 6);

    // x range and ticks.
    let few_x = xs.len() <= 12;
    let (x0, x1) = padded(xmin, xmax, 0.04);
    check_range("x range", x0, x1).map_err(ctx)?;
    let (x_ticks, x_step) = if few_x { (xs.clone(), 0.0) } else { nice_ticks(x0, x1, 8) };
    // Small horizontal dodge between series so error bars at the same x do not coincide.
    let n_series = c.series.len();
    let dodge = if few_x && n_series > 1 {
        let min_gap = xs.windows(2).map(|w| w[1] - w[0]).fold(x1 - x0, f64::min);
        (min_gap * 0.3 / n_series as f64).min((x1 - x0) * 0.012)
    } else {
        0.0
    };

    // Layout.
    let unit = Unit::of(c.percent, c.points);
    let ref_label = match &c.reference {
        Some((_, l)) if !l.is_empty() => Some(shorten(l, 28)),
        _ => None,
    };
    // A series of no points keeps its colour and marker (so the same value
    // looks the same in every chart of a study) but has no legend entry.
    let has_legend = ref_label.is_some() || c.series.iter().any(|s| !s.label.is_empty() && !s.points.is_empty());
    let mut legend_labels: Vec<String> = c.series.iter().map(|s| shorten(&s.label, 36)).collect();
    legend_labels.extend(ref_label.iter().cloned());
    let legend_w = if has_legend {
        let w = legend_labels.iter().map(|l| est_w(LABEL_SIZE, l)).max().unwrap_or(0);
        (w + 56).clamp(110, 300)
    } else {
        0
    };
    let y_label_w = y_ticks.iter().map(|&v| est_w(LABEL_SIZE, &tick_text(v, y_step, unit))).max().unwrap_or(20) + 48;
    let colours = series_colours(&c.series);
    let marked = |s: &Series| s.points.len() <= MAX_MARKED;
    // Points whose interval is one-sided, and the widest of those intervals.
    let sided: Vec<&Point> =
        c.series.iter().filter(|s| marked(s)).flat_map(|s| &s.points).filter(|p| one_sided(p.y, p.lo, p.hi)).collect();
    let sided_w = sided.iter().map(|p| p.hi - p.lo).fold(0.0, f64::max);
    let subtitle = wrap(&c.subtitle, SUB_SIZE, WIDTH as i32 - 40, 3);
    let note_lines = 1 + usize::from(!sided.is_empty());
    let height = HEIGHT as i32 + header_height(&subtitle) - 46 + NOTE_LINE * note_lines as i32 + FOOT_GAP;

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (WIDTH, height as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        let area = header(&root, &c.title, &subtitle)?;
        let (area, foot) = split_footer(area, note_lines);
        let (plot_area, legend_area) = area.split_horizontally(WIDTH as i32 - legend_w);

        let x_spec = axis(x0, x1, x_ticks.clone());
        let y_spec = axis(y0, y1, y_ticks.clone());
        let mut chart = ChartBuilder::on(&plot_area)
            .margin_top(8)
            .margin_right(if has_legend { 8 } else { 24 })
            .margin_left(6)
            .x_label_area_size(58)
            .y_label_area_size(y_label_w)
            .build_cartesian_2d(x_spec, y_spec)
            .map_err(pe)?;

        let x_unit = Unit::of(c.x_percent, false);
        let x_fmt = move |v: &f64| match (few_x, x_unit) {
            (true, Unit::Percent) => format!("{}%", fmt_compact(*v * 100.0)),
            (true, _) => fmt_compact(*v),
            (false, u) => tick_text(*v, x_step, u),
        };
        let y_fmt = move |v: &f64| tick_text(*v, y_step, unit);
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .axis_style(BLACK)
            .x_desc(c.x_label.as_str())
            .y_desc(c.y_label.as_str())
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .draw()
            .map_err(pe)?;

        let pa = chart.plotting_area();

        // Reference line under the data (its label goes in the legend).
        if let Some((r, _)) = c.reference.as_ref().filter(|(r, _)| (y0..=y1).contains(r)) {
            draw_dashed(pa, (x0, *r), (x1, *r))?;
        }

        // How many error bars were drawn, and how many of them hide behind their marker.
        let (mut bars, mut hidden, mut banded, mut thin) = (0usize, 0usize, 0usize, 0usize);
        for (si, s) in c.series.iter().enumerate() {
            let colour = colours[si];
            let shift = dodge * (si as f64 - (n_series as f64 - 1.0) / 2.0);
            let mut pts: Vec<&Point> = s.points.iter().collect();
            pts.sort_by(|a, b| a.x.total_cmp(&b.x));
            if few_x {
                // Error bars; a one-sided interval has its whisker on one side only.
                for p in &pts {
                    let x = p.x + shift;
                    let (lo, hi) = (clamp_y(p.lo), clamp_y(p.hi));
                    let st = line_style(colour, 2);
                    pa.draw(&PathElement::new(vec![(x, lo), (x, hi)], st)).map_err(pe)?;
                    let ends: Vec<f64> =
                        if one_sided(p.y, p.lo, p.hi) { vec![if p.y == p.lo { hi } else { lo }] } else { vec![lo, hi] };
                    for end in ends {
                        pa.draw(&(EmptyElement::at((x, end)) + PathElement::new(vec![(-5, 0), (5, 0)], st)))
                            .map_err(pe)?;
                    }
                    let (_, a) = chart.backend_coord(&(x, lo));
                    let (_, b) = chart.backend_coord(&(x, hi));
                    bars += 1;
                    // One-sided: only the part beyond the marker's half shows.
                    let reach = if one_sided(p.y, p.lo, p.hi) { 2 * (a - b).abs() } else { (a - b).abs() };
                    if reach < MARKER_PX {
                        hidden += 1;
                    }
                }
            } else {
                // Many x values: a translucent band is easier to read than a forest of bars.
                let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (p.x, clamp_y(p.hi))).collect();
                band.extend(pts.iter().rev().map(|p| (p.x, clamp_y(p.lo))));
                pa.draw(&Polygon::new(band, colour.mix(0.3).filled())).map_err(pe)?;
                for p in &pts {
                    let (_, a) = chart.backend_coord(&(p.x, clamp_y(p.lo)));
                    let (_, b) = chart.backend_coord(&(p.x, clamp_y(p.hi)));
                    banded += 1;
                    // Under a marker, or the line's width where there is none.
                    if (a - b).abs() < if marked(s) { MARKER_PX } else { 3 } {
                        thin += 1;
                    }
                }
            }
            // Line.
            let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.x + shift, clamp_y(p.y))).collect();
            pa.draw(&PathElement::new(line.clone(), line_style(colour, 2))).map_err(pe)?;
            // Markers (left out when they would merge into a thick line).
            if line.len() <= MAX_MARKED {
                for (&pt, p) in line.iter().zip(&pts) {
                    draw_marker(pa, pt, si, colour, one_sided(p.y, p.lo, p.hi))?;
                }
            }
        }

        // Legend, outside the plot area.
        if has_legend {
            let mut y = 30;
            for (si, label) in legend_labels.iter().enumerate() {
                if si < n_series && c.series[si].points.is_empty() {
                    continue;
                }
                if si < n_series {
                    let colour = colours[si];
                    legend_area.draw(&PathElement::new(vec![(8, y), (40, y)], line_style(colour, 2))).map_err(pe)?;
                    if c.series[si].points.len() <= MAX_MARKED {
                        draw_marker(&legend_area, (24, y), si, colour, false)?;
                    }
                } else {
                    draw_dashed(&legend_area, (8, y), (40, y))?;
                }
                legend_area
                    .draw(&Text::new(label.clone(), (48, y), text_style(LABEL_SIZE, BLACK, HPos::Left, VPos::Center)))
                    .map_err(pe)?;
                y += 24;
            }
        }

        // The notes: what the bars are, and what cannot be seen.
        let mut notes = Vec::new();
        let bars_note = if banded > 0 && bars == 0 {
            if thin == banded {
                "95% intervals are narrower than the lines and markers.".to_string()
            } else if thin > 0 {
                "Shaded bands: 95% intervals; where none shows, it is narrower than the line.".to_string()
            } else {
                "Shaded bands: 95% intervals.".to_string()
            }
        } else if hidden == 0 {
            "Error bars: 95% intervals.".to_string()
        } else if hidden == bars {
            "95% intervals are smaller than the markers.".to_string()
        } else {
            "Error bars: 95% intervals; where none shows, it is smaller than the marker.".to_string()
        };
        notes.push(vec![Seg::Text(bars_note)]);
        if !sided.is_empty() {
            let what = if unit == Unit::Percent { "a rate of 0% or 100%" } else { "a value at an end of its interval" };
            notes.push(vec![Seg::Text(format!(
                "Hollow markers: {what}; its 95% interval is one-sided (within {}).",
                unit.width(sided_w)
            ))]);
        }
        footer(&foot, &notes)?;
        root.present().map_err(pe)?;
    }
    Ok(buf)
}

// ---------------------------------------------------------------------------
// Bar chart

/// Draw a horizontal bar chart with error bars. See the module documentation.
///
/// Errors: no bars; a non-finite number; an interval with `lo > hi`.
pub fn bar_chart(c: &BarChart) -> Result<String, String> {
    let ctx = |m: String| format!("bar chart '{}': {m}", c.title);
    if c.bars.is_empty() {
        return Err(ctx("no bars to plot".into()));
    }
    if c.bars.len() > MAX_ITEMS {
        return Err(ctx(format!("too many bars to draw ({}; at most {MAX_ITEMS})", c.bars.len())));
    }
    let (mut vmin, mut vmax) = (0.0f64, 0.0f64);
    for (i, b) in c.bars.iter().enumerate() {
        check_interval(&format!("bar {i} ('{}')", b.label), b.value, b.lo, b.hi).map_err(ctx)?;
        vmin = vmin.min(b.lo).min(b.value);
        vmax = vmax.max(b.hi).max(b.value);
    }
    if let Some((r, _)) = &c.reference {
        finite("reference value", *r).map_err(ctx)?;
        vmin = vmin.min(*r);
        vmax = vmax.max(*r);
    }
    let n = c.bars.len();
    let unit = Unit::of(c.percent, c.points);
    let subtitle = wrap(&c.subtitle, SUB_SIZE, WIDTH as i32 - 40, 3);
    let camps = camps_note(c.bars.iter().map(|b| b.camp));
    let sided: Vec<&Bar> = c.bars.iter().filter(|b| one_sided(b.value, b.lo, b.hi)).collect();
    let note_lines = 1 + usize::from(camps.is_some()) + usize::from(!sided.is_empty());
    let extra = header_height(&subtitle) - 46 + NOTE_LINE * note_lines as i32 + FOOT_GAP;
    let height = HEIGHT.max(150 + 34 * n as u32) + extra as u32;

    let labels: Vec<String> = c.bars.iter().map(|b| shorten(&b.label, 32)).collect();
    let cat_w = labels.iter().map(|l| est_w(LABEL_SIZE, l)).max().unwrap_or(0) + 22;
    let plot_w_px = (WIDTH as i32 - cat_w - 40).max(100) as f64;

    // Value range: data + margin + room for the value labels beside the bars.
    let (a, b) = padded(vmin, vmax, 0.03);
    check_range("value range", a, b).map_err(ctx)?;
    let text_room = (b - a) * 64.0 / plot_w_px;
    let v0 = if c.bars.iter().any(|b| b.value < 0.0) { a - text_room } else { a };
    let v1 = if c.bars.iter().any(|b| b.value >= 0.0) { b + text_room } else { b };
    let v0 = if vmin >= 0.0 { v0.max(0.0) } else { v0 };
    let v1 = if vmax <= 0.0 && c.bars.iter().all(|b| b.value < 0.0) { v1.min(0.0) } else { v1 };
    check_range("value range", v0, v1).map_err(ctx)?;
    let (v_ticks, v_step) = nice_ticks(v0, v1, 7);

    // Category axis: bar i at y = n-1-i (first bar on top); extra room on top for the reference label.
    let top = n as f64 - 0.4 + if c.reference.is_some() { 0.6 } else { 0.0 };
    let cat_ticks: Vec<f64> = (0..n).map(|i| i as f64).collect();
    // Bar half-thickness in category units, at most about 22 px.
    let plot_h_px = (height as f64 - extra as f64 - 110.0).max(50.0);
    let half = 0.34f64.min(22.0 * (top + 0.6) / plot_h_px);

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        let area = header(&root, &c.title, &subtitle)?;
        let (area, foot) = split_footer(area, note_lines);
        let mut chart = ChartBuilder::on(&area)
            .margin_top(6)
            .margin_right(28)
            .margin_left(6)
            .x_label_area_size(58)
            .y_label_area_size(cat_w)
            .build_cartesian_2d(axis(v0, v1, v_ticks), axis(-0.6, top, cat_ticks))
            .map_err(pe)?;
        let v_fmt = move |v: &f64| tick_text(*v, v_step, unit);
        let labels_for_fmt = labels.clone();
        let cat_fmt = move |v: &f64| {
            let k = v.round();
            if k >= 0.0 && (k as usize) < n { labels_for_fmt[n - 1 - k as usize].clone() } else { String::new() }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .axis_style(BLACK)
            .x_desc(c.y_label.as_str())
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .x_label_formatter(&v_fmt)
            .y_label_formatter(&cat_fmt)
            .draw()
            .map_err(pe)?;
        let pa = chart.plotting_area();

        // Zero line.
        if v0 <= 0.0 && v1 >= 0.0 {
            pa.draw(&PathElement::new(vec![(0.0, -0.6), (0.0, top)], line_style(BLACK, 1))).map_err(pe)?;
        }
        let mut hidden = 0;
        for (i, bar) in c.bars.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let colour = bar.camp.map_or(NO_CAMP, camp_colour);
            let light = colour.mix(0.55);
            pa.draw(&Rectangle::new(
                [(0.0, y - half), (bar.value, y + half)],
                ShapeStyle { color: light, filled: true, stroke_width: 1 },
            ))
            .map_err(pe)?;
            pa.draw(&Rectangle::new([(0.0, y - half), (bar.value, y + half)], line_style(colour, 1))).map_err(pe)?;
            let st = line_style(BLACK, 2);
            pa.draw(&PathElement::new(vec![(bar.lo, y), (bar.hi, y)], st)).map_err(pe)?;
            // A one-sided interval: the whisker's cap at its one bound only.
            let ends: Vec<f64> = if one_sided(bar.value, bar.lo, bar.hi) {
                vec![if bar.value == bar.lo { bar.hi } else { bar.lo }]
            } else {
                vec![bar.lo, bar.hi]
            };
            for end in ends {
                pa.draw(&(EmptyElement::at((end, y)) + PathElement::new(vec![(0, -6), (0, 6)], st))).map_err(pe)?;
            }
            let (a, _) = chart.backend_coord(&(bar.lo, y));
            let (b, _) = chart.backend_coord(&(bar.hi, y));
            if (a - b).abs() < 4 {
                hidden += 1;
            }
            let text = value_text(bar.value, unit);
            let (at, dx, h) = if bar.value < 0.0 {
                (bar.lo.min(bar.value), -6, HPos::Right)
            } else {
                (bar.hi.max(bar.value), 6, HPos::Left)
            };
            pa.draw(
                &(EmptyElement::at((at, y)) + Text::new(text, (dx, 0), text_style(SMALL_SIZE, BLACK, h, VPos::Center))),
            )
            .map_err(pe)?;
        }
        if let Some((r, label)) = c.reference.as_ref().filter(|(r, _)| (v0..=v1).contains(r)) {
            draw_dashed(pa, (*r, -0.6), (*r, top))?;
            if !label.is_empty() {
                pa.draw(
                    &(EmptyElement::at((*r, top))
                        + Text::new(label.clone(), (5, 4), text_style(SMALL_SIZE, REF_COLOUR, HPos::Left, VPos::Top))),
                )
                .map_err(pe)?;
            }
        }
        let bars_note = if hidden == 0 {
            "Black whiskers: 95% intervals.".to_string()
        } else if hidden == n {
            "95% intervals are too narrow to show at this scale.".to_string()
        } else {
            "Black whiskers: 95% intervals; where none shows, it is too narrow to see.".to_string()
        };
        let mut notes = vec![vec![Seg::Text(bars_note)]];
        notes.extend(camps);
        if !sided.is_empty() {
            let w = sided.iter().map(|b| b.hi - b.lo).fold(0.0, f64::max);
            notes.push(vec![Seg::Text(format!(
                "A whisker with one cap: the value is at an end of its 95% interval, which is one-sided (within {}).",
                unit.width(w)
            ))]);
        }
        footer(&foot, &notes)?;
        root.present().map_err(pe)?;
    }
    Ok(buf)
}

// ---------------------------------------------------------------------------
// Heatmap

fn lerp(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let f = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
    RGBColor(f(a.0, b.0), f(a.1, b.1), f(a.2, b.2))
}

/// Diverging colour from `ends.1` below `centre` through near-white to `ends.0` above.
fn diverging_in(v: f64, centre: f64, ends: (RGBColor, RGBColor)) -> RGBColor {
    let v = v.clamp(0.0, 1.0);
    if v >= centre {
        let t = if centre < 1.0 { (v - centre) / (1.0 - centre) } else { 0.0 };
        lerp(NEUTRAL, ends.0, t)
    } else {
        let t = if centre > 0.0 { (centre - v) / centre } else { 0.0 };
        lerp(NEUTRAL, ends.1, t)
    }
}

/// A heatmap's colours above and below its centre: the camp's and its opponent's.
fn heat_ends(camp: Option<Camp>) -> (RGBColor, RGBColor) {
    match camp {
        None | Some(Camp::Town) => (PALETTE[0], PALETTE[1]),
        Some(Camp::Mafia) => (PALETTE[1], PALETTE[0]),
        Some(Camp::Bandits) => (PALETTE[2], NO_CAMP),
    }
}

fn ink_for(bg: RGBColor) -> RGBColor {
    let lum = 0.299 * bg.0 as f64 + 0.587 * bg.1 as f64 + 0.114 * bg.2 as f64;
    if lum > 150.0 { BLACK } else { WHITE }
}

/// Draw a heatmap. See the module documentation.
///
/// Errors: no rows or columns; `cells` not `ys.len()` rows of `xs.len()`
/// values; a non-finite value or centre; a centre outside 0..=1.
/// Values outside 0..1 are drawn with the end colour of the scale.
pub fn heatmap(h: &Heatmap) -> Result<String, String> {
    let ctx = |m: String| format!("heatmap '{}': {m}", h.title);
    let (nx, ny) = (h.xs.len(), h.ys.len());
    if nx == 0 || ny == 0 {
        return Err(ctx(format!("no cells to plot ({nx} columns, {ny} rows)")));
    }
    if nx > MAX_ITEMS || ny > MAX_ITEMS {
        return Err(ctx(format!("too many cells to draw ({nx} columns, {ny} rows; at most {MAX_ITEMS} each)")));
    }
    if h.cells.len() != ny {
        return Err(ctx(format!("{} rows of cells for {ny} row labels", h.cells.len())));
    }
    for (yi, row) in h.cells.iter().enumerate() {
        if row.len() != nx {
            return Err(ctx(format!("row {yi} has {} cells for {nx} column labels", row.len())));
        }
        for (xi, v) in row.iter().enumerate() {
            if let Some(v) = v {
                finite(&format!("cell ({}, {})", h.ys[yi], h.xs[xi]), *v).map_err(ctx)?;
            }
        }
    }
    finite("centre", h.centre).map_err(ctx)?;
    if !(0.0..=1.0).contains(&h.centre) {
        return Err(ctx(format!("centre {} is outside 0..1", h.centre)));
    }

    let xl: Vec<String> = h.xs.iter().map(|s| shorten(s, 24)).collect();
    let yl: Vec<String> = h.ys.iter().map(|s| shorten(s, 24)).collect();
    let cell = (900 / nx as i32).min(560 / ny as i32).clamp(16, 64);
    let x_text = xl.iter().map(|l| est_w(LABEL_SIZE, l)).max().unwrap_or(0);
    let rotate = x_text > cell - 6;
    let x_area = if rotate { x_text + 40 } else { 56 };
    let y_area = yl.iter().map(|l| est_w(LABEL_SIZE, l)).max().unwrap_or(0) + 46;
    let bar_w = 110;
    let width = (y_area + cell * nx as i32 + bar_w + 20).max(420) as u32;
    let annotate = h.annotate && cell >= 30;
    let ends = heat_ends(h.camp);
    let bounds_at = |yi: usize, xi: usize| h.bounds.get(yi).and_then(|r| r.get(xi)).copied().flatten();
    let sided = (0..ny).any(|yi| {
        (0..nx).any(|xi| match (h.cells[yi][xi], bounds_at(yi, xi)) {
            (Some(v), Some((lo, hi))) => one_sided(v, lo, hi),
            _ => false,
        })
    });
    let has_intervals = h.bounds.iter().flatten().any(Option::is_some) || h.half.iter().flatten().any(Option::is_some);
    let mut notes: Vec<Vec<Seg>> = Vec::new();
    if has_intervals && annotate {
        let mut n = "Under each value: ± the half-width of its 95% interval, in points".to_string();
        if sided {
            n.push_str("; ≥ or ≤ a one-sided bound (at 100% or 0%)");
        }
        notes.push(vec![Seg::Text(n + ".")]);
    } else if has_intervals {
        notes.push(vec![Seg::Text("95% intervals: too small to write in cells this size (see the table).".into())]);
    }
    if h.cells.iter().flatten().any(Option::is_none) {
        notes.push(vec![Seg::Swatch(MISSING), Seg::Text("no game.".into())]);
    }
    let notes: Vec<Vec<Seg>> = notes
        .into_iter()
        .flat_map(|line| match line.as_slice() {
            [Seg::Text(t)] => {
                wrap(t, NOTE_SIZE, width as i32 - 28, 3).into_iter().map(|l| vec![Seg::Text(l)]).collect()
            }
            _ => vec![line],
        })
        .collect();
    let subtitle = wrap(&h.subtitle, SUB_SIZE, width as i32 - 40, 3);
    let extra = header_height(&subtitle) - 46 + NOTE_LINE * notes.len() as i32 + FOOT_GAP;
    let height = ((50 + cell * ny as i32 + x_area + 16).max(300) + extra) as u32;

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        let area = header(&root, &h.title, &subtitle)?;
        let (area, foot) = split_footer(area, notes.len());
        let (grid_area, bar_area) = area.split_horizontally(width as i32 - bar_w);

        let x_ticks: Vec<f64> = (0..nx).map(|i| i as f64 + 0.5).collect();
        let y_ticks: Vec<f64> = (0..ny).map(|i| i as f64 + 0.5).collect();
        // Keep the cells square: the grid takes exactly cell*n pixels.
        let used_w = y_area + cell * nx as i32;
        let (grid_area, _) = grid_area.split_horizontally(used_w + 8);
        let mut chart = ChartBuilder::on(&grid_area)
            .margin_top(8)
            .margin_right(8)
            .x_label_area_size(x_area)
            .y_label_area_size(y_area)
            .build_cartesian_2d(axis(0.0, nx as f64, x_ticks), axis(0.0, ny as f64, y_ticks))
            .map_err(pe)?;
        let xl_fmt = xl.clone();
        let x_fmt = move |v: &f64| {
            let i = v.floor();
            if i >= 0.0 && (i as usize) < nx { xl_fmt[i as usize].clone() } else { String::new() }
        };
        let yl_fmt = yl.clone();
        let y_fmt = move |v: &f64| {
            let i = v.floor();
            if i >= 0.0 && (i as usize) < ny { yl_fmt[ny - 1 - i as usize].clone() } else { String::new() }
        };
        chart
            .configure_mesh()
            .disable_mesh()
            // Rotated column labels are drawn by hand below (plotters misplaces rotated axis labels).
            .x_labels(if rotate { 0 } else { nx })
            .axis_style(BLACK)
            .x_desc(h.x_label.as_str())
            .y_desc(h.y_label.as_str())
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .draw()
            .map_err(pe)?;
        if rotate {
            // Reading upwards, ending just below the tick mark of each column.
            let style = TextStyle::from((FONT, LABEL_SIZE).into_font())
                .pos(Pos::new(HPos::Right, VPos::Center))
                .transform(FontTransform::Rotate270);
            for (xi, label) in xl.iter().enumerate() {
                let (px, py) = chart.backend_coord(&(xi as f64 + 0.5, 0.0));
                root.draw(&Text::new(label.clone(), (px, py + 10), style.clone())).map_err(pe)?;
            }
        }
        let pa = chart.plotting_area();
        for (yi, row) in h.cells.iter().enumerate() {
            let y = (ny - 1 - yi) as f64;
            for (xi, v) in row.iter().enumerate() {
                let x = xi as f64;
                let bg = match v {
                    Some(v) => diverging_in(*v, h.centre, ends),
                    None => MISSING,
                };
                pa.draw(&Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill_style(bg))).map_err(pe)?;
                pa.draw(&Rectangle::new([(x, y), (x + 1.0, y + 1.0)], line_style(WHITE, 2))).map_err(pe)?;
                if let (true, Some(v)) = (annotate, v) {
                    // Under the value: ±half, or a one-sided bound rounded away from the value.
                    let under = match bounds_at(yi, xi).filter(|(lo, hi)| lo.is_finite() && hi.is_finite()) {
                        Some((lo, hi)) if one_sided(*v, lo, hi) && *v == hi => {
                            Some(format!("≥{}", fmt_fixed((lo * 1000.0).floor() / 10.0, 1)))
                        }
                        Some((lo, hi)) if one_sided(*v, lo, hi) => {
                            Some(format!("≤{}", fmt_fixed((hi * 1000.0).ceil() / 10.0, 1)))
                        }
                        Some((lo, hi)) => Some(format!("±{}", fmt_fixed((hi - lo) / 2.0 * 100.0, 1))),
                        None if h.bounds.is_empty() => h
                            .half
                            .get(yi)
                            .and_then(|r| r.get(xi))
                            .copied()
                            .flatten()
                            .filter(|x| x.is_finite())
                            .map(|hw| format!("±{}", fmt_fixed(hw * 100.0, 1))),
                        None => None,
                    };
                    let at = if under.is_some() { y + 0.64 } else { y + 0.5 };
                    pa.draw(&Text::new(
                        format!("{}%", fmt_fixed(v * 100.0, 0)),
                        (x + 0.5, at),
                        text_style(SMALL_SIZE, ink_for(bg), HPos::Center, VPos::Center),
                    ))
                    .map_err(pe)?;
                    if let Some(text) = under {
                        pa.draw(&Text::new(
                            text,
                            (x + 0.5, y + 0.3),
                            text_style(SMALL_SIZE - 2.0, ink_for(bg), HPos::Center, VPos::Center),
                        ))
                        .map_err(pe)?;
                    }
                }
            }
        }

        // Colour bar, pixel coordinates inside bar_area.
        let (_, bar_h) = bar_area.dim_in_pixel();
        let top = 10;
        let len = (cell * ny as i32).min(bar_h as i32 - x_area - 20).max(60);
        let steps = 50;
        for k in 0..steps {
            let v0 = 1.0 - k as f64 / steps as f64;
            let ya = top + (len * k) / steps;
            // Overlap by a pixel so no seams show between the slices.
            let yb = (top + (len * (k + 1)) / steps + 1).min(top + len);
            bar_area
                .draw(&Rectangle::new(
                    [(16, ya), (34, yb)],
                    fill_style(diverging_in(v0 - 0.5 / steps as f64, h.centre, ends)),
                ))
                .map_err(pe)?;
        }
        bar_area.draw(&Rectangle::new([(16, top), (34, top + len)], line_style(BLACK, 1))).map_err(pe)?;
        let mut marks = vec![1.0, h.centre, 0.0];
        marks.dedup();
        for m in marks {
            let y = top + ((1.0 - m) * len as f64).round() as i32;
            bar_area.draw(&PathElement::new(vec![(34, y), (39, y)], line_style(BLACK, 1))).map_err(pe)?;
            bar_area
                .draw(&Text::new(
                    format!("{}%", fmt_compact(m * 100.0)),
                    (42, y),
                    text_style(SMALL_SIZE, BLACK, HPos::Left, VPos::Center),
                ))
                .map_err(pe)?;
        }
        footer(&foot, &notes)?;
        root.present().map_err(pe)?;
    }
    Ok(buf)
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point {
        Point { x, y, lo: y - 0.05, hi: y + 0.05 }
    }

    fn sample_line() -> LineChart {
        LineChart {
            title: "Town win rate by player count".into(),
            x_label: "Players".into(),
            y_label: "Town win rate".into(),
            series: vec![
                Series {
                    label: "baseline".into(),
                    points: (7..=12).map(|n| pt(n as f64, 0.3 + 0.03 * n as f64 - 0.2)).collect(),
                    camp: None,
                },
                Series {
                    label: "with doctor".into(),
                    points: (7..=12).map(|n| pt(n as f64, 0.35 + 0.02 * n as f64 - 0.1)).collect(),
                    camp: None,
                },
            ],
            y_range: None,
            reference: Some((0.5, "fair".into())),
            percent: true,
            ..LineChart::default()
        }
    }

    fn sample_bars() -> BarChart {
        BarChart {
            title: "Change in town win rate".into(),
            y_label: "Win-rate change".into(),
            bars: vec![
                Bar { label: "Doctor".into(), value: 0.04, lo: 0.02, hi: 0.06, camp: None },
                Bar { label: "Sheriff & <Cop>".into(), value: -0.03, lo: -0.05, hi: -0.01, camp: None },
            ],
            reference: Some((0.0, "no difference".into())),
            percent: true,
            ..BarChart::default()
        }
    }

    fn sample_heat() -> Heatmap {
        Heatmap {
            title: "Win rate by setup".into(),
            x_label: "Mafia count".into(),
            y_label: "Town size".into(),
            xs: vec!["1".into(), "2".into(), "3".into()],
            ys: vec!["small".into(), "large".into()],
            cells: vec![vec![Some(0.2), Some(0.5), None], vec![Some(0.9), Some(0.45), Some(0.0)]],
            centre: 0.5,
            annotate: true,
            half: vec![],
            ..Heatmap::default()
        }
    }

    fn is_svg(s: &str) -> bool {
        // XML-ish: one root element, balanced text elements, no raw '&' left unescaped.
        s.starts_with("<svg")
            && s.trim_end().ends_with("</svg>")
            && s.matches("<svg").count() == 1
            && s.matches("<text").count() == s.matches("</text>").count()
            && s.match_indices('&')
                .all(|(i, _)| ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|e| s[i..].starts_with(e)))
    }

    #[test]
    fn line_chart_is_deterministic_and_labelled() {
        let c = sample_line();
        let a = line_chart(&c).unwrap();
        let b = line_chart(&c.clone()).unwrap();
        assert_eq!(a, b);
        assert!(is_svg(&a), "{}", &a[..a.len().min(200)]);
        for s in ["Town win rate by player count", "Players", "Town win rate", "baseline", "with doctor", "fair"] {
            assert!(a.contains(&format!(">\n{s}\n</text>")), "missing text {s}");
        }
        assert!(a.contains("font-family=\"sans-serif\""));
        // Percent tick labels.
        assert!(a.contains("%\n</text>"));
        // Ticks at the given x values.
        for n in 7..=12 {
            assert!(a.contains(&format!(">\n{n}\n</text>")), "missing x tick {n}");
        }
    }

    #[test]
    fn bar_chart_is_deterministic_and_escapes_labels() {
        let c = sample_bars();
        let a = bar_chart(&c).unwrap();
        assert_eq!(a, bar_chart(&c).unwrap());
        assert!(is_svg(&a));
        assert!(a.contains("Sheriff &amp; &lt;Cop&gt;"));
        assert!(!a.contains("<Cop>"));
        for s in ["Change in town win rate", "Win-rate change", "Doctor", "no difference", "4.0%", "-3.0%"] {
            assert!(a.contains(s), "missing {s}");
        }
    }

    #[test]
    fn heatmap_is_deterministic_and_annotated() {
        let h = sample_heat();
        let a = heatmap(&h).unwrap();
        assert_eq!(a, heatmap(&h).unwrap());
        assert!(is_svg(&a));
        for s in
            ["Win rate by setup", "Mafia count", "Town size", "small", "large", ">\n20%\n<", ">\n90%\n<", ">\n0%\n<"]
        {
            assert!(a.contains(s), "missing {s}");
        }
        // Centre colour is near-white, extremes are the palette colours.
        let diverging = |v, c| diverging_in(v, c, heat_ends(None));
        assert_eq!(diverging(0.5, 0.5), NEUTRAL);
        assert_eq!(diverging(1.0, 0.5), PALETTE[0]);
        assert_eq!(diverging(0.0, 0.5), PALETTE[1]);
        let mut no_ann = h.clone();
        no_ann.annotate = false;
        assert!(!heatmap(&no_ann).unwrap().contains(">\n20%\n<"));
        // Intervals: each annotated cell also says its half-width.
        let mut with_half = h.clone();
        with_half.half = vec![vec![Some(0.012), Some(0.01), None], vec![Some(0.004), None, Some(0.0)]];
        let b = heatmap(&with_half).unwrap();
        assert!(b.contains(">\n±1.2\n<") && b.contains(">\n±0.4\n<"), "half-widths written");
        assert!(!a.contains('±'), "none without them");
    }

    #[test]
    fn different_input_gives_different_output() {
        let mut c = sample_line();
        let a = line_chart(&c).unwrap();
        c.series[0].points[0].y += 0.01;
        assert_ne!(a, line_chart(&c).unwrap());
    }

    #[test]
    fn empty_input_is_an_error() {
        let mut c = sample_line();
        c.series.clear();
        assert!(line_chart(&c).unwrap_err().contains("no data points"));
        c.series = vec![Series { label: "x".into(), points: vec![], camp: None }];
        assert!(line_chart(&c).unwrap_err().contains("no data points"));
        let mut b = sample_bars();
        b.bars.clear();
        assert!(bar_chart(&b).unwrap_err().contains("no bars"));
        let mut h = sample_heat();
        h.xs.clear();
        assert!(heatmap(&h).unwrap_err().contains("no cells"));
        let mut b = sample_bars();
        b.bars = vec![b.bars[0].clone(); 501];
        assert!(bar_chart(&b).unwrap_err().contains("too many"));
    }

    #[test]
    fn nan_is_refused() {
        let mut c = sample_line();
        c.series[1].points[2].hi = f64::NAN;
        let e = line_chart(&c).unwrap_err();
        assert!(e.contains("not a finite number") && e.contains("with doctor"), "{e}");
        let mut c = sample_line();
        c.series[0].points[0].x = f64::INFINITY;
        assert!(line_chart(&c).is_err());
        let mut c = sample_line();
        c.y_range = Some((0.0, f64::NAN));
        assert!(line_chart(&c).unwrap_err().contains("y_range"));
        let mut c = sample_line();
        c.reference = Some((f64::NAN, "fair".into()));
        assert!(line_chart(&c).is_err());
        let mut b = sample_bars();
        b.bars[0].value = f64::NAN;
        assert!(bar_chart(&b).unwrap_err().contains("Doctor"));
        let mut h = sample_heat();
        h.cells[1][1] = Some(f64::NAN);
        assert!(heatmap(&h).unwrap_err().contains("large"));
        let mut h = sample_heat();
        h.centre = f64::NAN;
        assert!(heatmap(&h).is_err());
    }

    #[test]
    fn bad_shapes_are_refused() {
        let mut h = sample_heat();
        h.cells[0].pop();
        assert!(heatmap(&h).unwrap_err().contains("row 0"));
        let mut h = sample_heat();
        h.cells.pop();
        assert!(heatmap(&h).is_err());
        let mut h = sample_heat();
        h.centre = 1.5;
        assert!(heatmap(&h).is_err());
        let mut c = sample_line();
        c.series[0].points[0].lo = 1.0;
        c.series[0].points[0].hi = 0.0;
        assert!(line_chart(&c).unwrap_err().contains("inverted"));
        let mut c = sample_line();
        c.y_range = Some((1.0, 1.0));
        assert!(line_chart(&c).is_err());
    }

    #[test]
    fn degenerate_inputs_still_draw() {
        // A single point, zero-width interval, no reference.
        let c = LineChart {
            title: "one".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                label: "s".into(),
                points: vec![Point { x: 3.0, y: 0.5, lo: 0.5, hi: 0.5 }],
                camp: None,
            }],
            y_range: None,
            reference: None,
            percent: false,
            ..LineChart::default()
        };
        assert!(is_svg(&line_chart(&c).unwrap()));
        // All-equal values, many x values, many series, huge and tiny magnitudes.
        let flat: Vec<Point> = (0..40).map(|i| Point { x: i as f64 * 0.25, y: 7.0, lo: 7.0, hi: 7.0 }).collect();
        let mut c2 = c.clone();
        c2.series = (0..10).map(|i| Series { label: format!("s{i}"), points: flat.clone(), camp: None }).collect();
        assert!(is_svg(&line_chart(&c2).unwrap()));
        c2.series = vec![Series {
            label: String::new(),
            points: vec![Point { x: 0.0, y: 1e300, lo: -1e300, hi: 1e300 }],
            camp: None,
        }];
        assert!(line_chart(&c2).is_ok());
        c2.series = vec![Series {
            label: String::new(),
            points: vec![
                Point { x: 1e-12, y: 1e-12, lo: 1e-12, hi: 2e-12 },
                Point { x: 2e-12, y: 1e-12, lo: 0.0, hi: 2e-12 },
            ],
            camp: None,
        }];
        assert!(line_chart(&c2).is_ok());
        // Overflowing range is refused, not drawn wrongly.
        c2.series = vec![Series {
            label: String::new(),
            points: vec![Point { x: 0.0, y: 0.0, lo: -f64::MAX, hi: f64::MAX }],
            camp: None,
        }];
        assert!(line_chart(&c2).is_err());
        // Data outside a fixed y range is clamped, not a panic.
        let mut c3 = sample_line();
        c3.y_range = Some((0.4, 0.45));
        assert!(line_chart(&c3).is_ok());
        // All-zero bars; all-negative bars; one bar.
        let mut b = sample_bars();
        b.bars = vec![Bar { label: "z".into(), value: 0.0, lo: 0.0, hi: 0.0, camp: None }];
        b.reference = None;
        assert!(is_svg(&bar_chart(&b).unwrap()));
        b.bars = vec![Bar { label: "n".into(), value: -2.0, lo: -3.0, hi: -1.0, camp: None }];
        b.percent = false;
        assert!(bar_chart(&b).unwrap().contains(">\n-2\n<"));
        // Heatmap with every cell missing, and a 1x1 one with centre at an edge.
        let mut h = sample_heat();
        h.cells = vec![vec![None; 3]; 2];
        assert!(is_svg(&heatmap(&h).unwrap()));
        let h1 = Heatmap {
            xs: vec!["a".into()],
            ys: vec!["b".into()],
            cells: vec![vec![Some(2.0)]],
            centre: 1.0,
            ..sample_heat()
        };
        assert!(is_svg(&heatmap(&h1).unwrap()));
        let h0 = Heatmap { centre: 0.0, ..h1.clone() };
        assert!(is_svg(&heatmap(&h0).unwrap()));
    }

    /// Issue 37: axis labels in words with their units, a subtitle, and
    /// differences in percentage points (no `%` on their ticks).
    #[test]
    fn labels_in_words_and_the_subtitle_are_written() {
        let c = LineChart {
            title: "What the rule gives the town".into(),
            subtitle: "Setup classic (10 players) · lineup preset:classic · 38,912 games per point · seed 2026".into(),
            x_label: "Absence per phase (%; rules.absence)".into(),
            y_label: "Change in town win rate (percentage points)".into(),
            series: vec![Series {
                label: "3 nights without a kill".into(),
                points: (0..4).map(|i| pt(i as f64 * 0.1, 0.05 * i as f64)).collect(),
                camp: Some(Camp::Town),
            }],
            reference: Some((0.0, "no difference".into())),
            points: true,
            x_percent: true,
            ..LineChart::default()
        };
        let svg = line_chart(&c).unwrap();
        assert!(is_svg(&svg));
        for s in [
            "Absence per phase (%; rules.absence)",
            "Change in town win rate (percentage points)",
            "3 nights without a kill",
        ] {
            assert!(svg.contains(&format!(">\n{s}\n</text>")), "missing {s}");
        }
        // The subtitle, wrapped or not, has every part.
        for s in ["Setup classic (10 players)", "lineup preset:classic", "38,912 games per point", "seed 2026"] {
            assert!(svg.contains(s), "subtitle lacks {s}");
        }
        // x ticks as percentages, y ticks in points (no % sign).
        assert!(svg.contains(">\n10%\n</text>") && svg.contains(">\n30%\n</text>"));
        assert!(svg.contains(">\n10\n</text>"), "a tick of 10 points");
        // A series of no points keeps its place (colour, marker) but has no legend entry.
        let mut with_empty = c.clone();
        with_empty
            .series
            .insert(0, Series { label: "no such rule (off)".into(), camp: Some(Camp::Town), ..Series::default() });
        let svg = line_chart(&with_empty).unwrap();
        assert!(!svg.contains("no such rule") && svg.contains("3 nights without a kill"));
        // A long subtitle wraps, between the parts of its list.
        let long = LineChart { subtitle: ["a part of the subtitle"; 12].join(" · "), ..c.clone() };
        let lines = wrap(&long.subtitle, SUB_SIZE, WIDTH as i32 - 40, 3);
        assert!(lines.len() > 1 && lines.iter().all(|l| !l.starts_with('·') && !l.ends_with('·')), "{lines:?}");
        assert!(line_chart(&long).unwrap().contains(&format!(">\n{}\n</text>", lines[1])));
    }

    /// Issue 37: intervals are visible, or the chart says they are smaller than the markers.
    #[test]
    fn intervals_too_small_to_see_are_noted() {
        let mut c = sample_line();
        let small = "95% intervals are smaller than the markers.";
        let svg = line_chart(&c).unwrap();
        assert!(svg.contains("Error bars: 95% intervals.") && !svg.contains(small));
        for s in &mut c.series {
            for p in &mut s.points {
                (p.lo, p.hi) = (p.y - 1e-4, p.y + 1e-4);
            }
        }
        assert!(line_chart(&c).unwrap().contains(small));
        // Some small, some not.
        c.series[0].points[0].lo -= 0.1;
        assert!(line_chart(&c).unwrap().contains("where none shows, it is smaller than the marker"));
        // Bars: whiskers narrower than a few pixels are said to be.
        let mut b = sample_bars();
        assert!(bar_chart(&b).unwrap().contains("Black whiskers: 95% intervals."));
        for bar in &mut b.bars {
            (bar.lo, bar.hi) = (bar.value - 1e-6, bar.value + 1e-6);
        }
        assert!(bar_chart(&b).unwrap().contains("95% intervals are too narrow to show at this scale."));
    }

    /// Issue 37: a rate of 0% or 100% has a one-sided interval, drawn with
    /// one cap and a hollow marker and said so; the heatmap writes its bound.
    #[test]
    fn one_sided_bounds_are_drawn_and_labelled() {
        let (_, u) = crate::stats::wilson(0, 2048);
        let one = |lo: f64| LineChart {
            title: "t".into(),
            series: vec![Series {
                label: "1 mafia".into(),
                points: vec![Point { x: 7.0, y: 0.0, lo, hi: u }, Point { x: 8.0, y: 0.5, lo: 0.45, hi: 0.55 }],
                camp: Some(Camp::Town),
            }],
            percent: true,
            ..LineChart::default()
        };
        let sided = line_chart(&one(0.0)).unwrap();
        let two = line_chart(&one(-u)).unwrap();
        let note = format!("within {}", Unit::Percent.width(u));
        assert_eq!(note, "within 0.15 points");
        assert!(
            sided.contains("Hollow markers: a rate of 0% or 100%; its 95% interval is one-sided")
                && sided.contains(&note)
        );
        assert!(!two.contains("Hollow markers"));
        // One cap fewer, and a hollow marker: white inside, the line's colour as its edge.
        assert_eq!(sided.matches("<polyline").count() + 1, two.matches("<polyline").count());
        assert!(
            sided.matches("fill=\"#FFFFFF\" stroke=\"none\"").count()
                > two.matches("fill=\"#FFFFFF\" stroke=\"none\"").count()
        );
        // Bars.
        let b =
            BarChart { bars: vec![Bar { label: "x".into(), value: 0.0, lo: 0.0, hi: u, camp: None }], ..sample_bars() };
        assert!(bar_chart(&b).unwrap().contains("A whisker with one cap"));
        // Heatmap: a bound rounded away from the value, under it.
        let h = Heatmap {
            cells: vec![vec![Some(1.0), Some(0.5), Some(0.0)], vec![Some(0.9), Some(0.45), Some(0.0)]],
            bounds: vec![
                vec![Some((1.0 - u, 1.0)), Some((0.48, 0.52)), Some((0.0, u))],
                vec![Some((0.88, 0.92)), None, Some((0.0, u))],
            ],
            ..sample_heat()
        };
        let svg = heatmap(&h).unwrap();
        assert!(
            svg.contains(">\n≥99.8\n<") && svg.contains(">\n≤0.2\n<") && svg.contains(">\n±2.0\n<"),
            "bounds written"
        );
        assert!(svg.contains("≥ or ≤ a one-sided bound (at 100% or 0%)"));
    }

    /// Issue 37: each camp has one colour in every chart, whatever its place.
    #[test]
    fn camp_colours_are_fixed() {
        assert_eq!(camp_hex(Camp::Town), "#0072b2");
        assert_eq!(camp_hex(Camp::Mafia), "#d55e00");
        assert_eq!(camp_hex(Camp::Bandits), "#009e73");
        let hex = |c: Camp| {
            let (r, g, b) = camp_rgb(c);
            format!("#{r:02X}{g:02X}{b:02X}")
        };
        // A mafia line first or second is drawn in the mafia's colour; a line of no camp in none of theirs.
        let mut c = sample_line();
        c.series[1].camp = Some(Camp::Mafia);
        let svg = line_chart(&c).unwrap();
        assert!(svg.contains(&format!("stroke=\"{}\"", hex(Camp::Mafia))));
        assert!(!svg.contains(&hex(Camp::Town)) && !svg.contains(&hex(Camp::Bandits)));
        c.series.swap(0, 1);
        assert!(line_chart(&c).unwrap().contains(&format!("stroke=\"{}\"", hex(Camp::Mafia))));
        // Two lines of one camp: shades of its colour, the same shades in any chart.
        let cols = series_colours(&[
            Series { camp: Some(Camp::Town), ..Series::default() },
            Series { camp: Some(Camp::Bandits), ..Series::default() },
            Series { camp: Some(Camp::Town), ..Series::default() },
        ]);
        assert_eq!(cols[1], camp_colour(Camp::Bandits));
        assert_eq!(cols[0], shade(camp_colour(Camp::Town), 0, 2));
        assert_ne!(cols[0], cols[2]);
        // Bars in their camp's colour, with a legend of the camps present.
        let mut b = sample_bars();
        b.bars[0].camp = Some(Camp::Bandits);
        b.bars[1].camp = Some(Camp::Town);
        let svg = bar_chart(&b).unwrap();
        assert!(
            svg.contains(&format!("fill=\"{}\"", hex(Camp::Bandits)))
                && svg.contains(&format!("fill=\"{}\"", hex(Camp::Town)))
        );
        assert!(svg.contains("Colour: the camp") && svg.contains(">\nbandits\n<") && !svg.contains(">\nmafia\n<"));
        // A mafia rate's heatmap is the mafia's colour above the centre.
        assert_eq!(diverging_in(1.0, 0.5, heat_ends(Some(Camp::Mafia))), camp_colour(Camp::Mafia));
        assert_eq!(diverging_in(0.0, 0.5, heat_ends(Some(Camp::Mafia))), camp_colour(Camp::Town));
    }

    #[test]
    fn points_are_signed_values_without_a_percent_sign() {
        assert_eq!(value_text(0.0712, Unit::Points), "+7.1");
        assert_eq!(value_text(-0.058, Unit::Points), "-5.8");
        assert_eq!(value_text(-0.0001, Unit::Points), "0.0");
        assert_eq!(tick_text(0.05, 0.05, Unit::Points), "5");
        assert_eq!(tick_text(0.5, 0.1, Unit::Percent), "50%");
    }

    #[test]
    fn tick_formatting() {
        assert_eq!(tick_label(0.5, 0.1, true), "50%");
        assert_eq!(tick_label(0.025, 0.025, true), "2.5%");
        assert_eq!(tick_label(-0.0, 0.1, true), "0%");
        assert_eq!(tick_label(-0.05, 0.05, true), "-5%");
        assert_eq!(tick_label(2.5, 2.5, false), "2.5");
        assert_eq!(tick_label(10.0, 5.0, false), "10");
        assert_eq!(fmt_compact(7.0), "7");
        assert_eq!(fmt_compact(0.125), "0.125");
        let (t, s) = nice_ticks(0.0, 1.0, 5);
        assert_eq!(s, 0.2);
        assert_eq!(t.len(), 6);
        assert_eq!(value_label(0.5234, true), "52.3%");
    }
}
