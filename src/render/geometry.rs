//! Where things are on the rendered images, computed from the board geometry in the data
//! (moon.toml's grid, labels and station rects; tracks.toml's track lengths) and the layout
//! (layout.toml). The drawing code and the pixel tests use the same functions, so a test can
//! ask "which pixel shows sector 7?" without knowing how the picture is drawn.

use super::layout::{Layout, Rect};
use crate::data::{Company, GameData};

/// The Moon (or Belt) panel: a piecewise-linear map from board units to pixels. Inside the
/// play area one unit is `cell_px / cell_size` pixels; the station bands outside it are
/// squeezed to `station_depth_px`.
#[derive(Debug, Clone)]
pub struct MoonGeometry {
    origin: (f32, f32),
    /// Pixels per unit inside the play area.
    scale: f32,
    /// Pixels per unit in the station bands.
    band_scale: f32,
    /// Depth of the station bands in units.
    band_units: f32,
    /// Play area size in units.
    extent: (f32, f32),
    cols: usize,
    rows: usize,
    cell_units: f32,
    /// Sector number per cell, row-major (0 for a malformed cell).
    cells: Vec<u32>,
}

/// Where a sector's number badge, structure icon and outpost token go (pixel centres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SectorPlacement {
    pub badge: (f32, f32),
    pub icon: (f32, f32),
    pub token: (f32, f32),
}

impl MoonGeometry {
    pub fn new(data: &GameData, layout: &Layout) -> MoonGeometry {
        let g = &data.moon.grid;
        let m = &layout.board.moon;
        let cell_units = g.cell_size.max(1) as f32;
        let (cols, rows) = (g.columns as usize, g.rows as usize);
        let extent = (cols as f32 * cell_units, rows as f32 * cell_units);
        let mut band_units: f32 = 0.0;
        for s in &data.moon.stations {
            let [x0, y0, x1, y1] = s.rect.map(|v| v as f32);
            band_units = band_units
                .max(-x0)
                .max(-y0)
                .max(x1 - extent.0)
                .max(y1 - extent.1);
        }
        let band_units = band_units.max(1.0);
        let mut cells = Vec::with_capacity(cols * rows);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(g.cell(r, c).unwrap_or(0));
            }
        }
        MoonGeometry {
            origin: (m.origin[0], m.origin[1]),
            scale: m.cell_px / cell_units,
            band_scale: m.station_depth_px / band_units,
            band_units,
            extent,
            cols,
            rows,
            cell_units,
            cells,
        }
    }

    fn axis(&self, u: f32, extent: f32) -> f32 {
        let band = self.band_units * self.band_scale;
        if u < 0.0 {
            band + u * self.band_scale
        } else if u <= extent {
            band + u * self.scale
        } else {
            band + extent * self.scale + (u - extent) * self.band_scale
        }
    }

    /// Board units → pixels.
    pub fn px(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.origin.0 + self.axis(x, self.extent.0),
            self.origin.1 + self.axis(y, self.extent.1),
        )
    }

    /// A rectangle in board units ([x0, y0, x1, y1]) → pixels.
    pub fn rect(&self, r: [f32; 4]) -> Rect {
        let (x0, y0) = self.px(r[0], r[1]);
        let (x1, y1) = self.px(r[2], r[3]);
        Rect::new(x0.min(x1), y0.min(y1), (x1 - x0).abs(), (y1 - y0).abs())
    }

    /// The whole panel: play area and station bands.
    pub fn panel(&self) -> Rect {
        let b = -self.band_units;
        self.rect([b, b, self.extent.0 - b, self.extent.1 - b])
    }

    /// The play area.
    pub fn map(&self) -> Rect {
        self.rect([0.0, 0.0, self.extent.0, self.extent.1])
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cell_px(&self) -> f32 {
        self.cell_units * self.scale
    }

    pub fn cell_rect(&self, col: usize, row: usize) -> Rect {
        let u = self.cell_units;
        self.rect([
            col as f32 * u,
            row as f32 * u,
            (col + 1) as f32 * u,
            (row + 1) as f32 * u,
        ])
    }

    /// Sector number of a cell.
    pub fn sector_at(&self, col: usize, row: usize) -> Option<u32> {
        if col >= self.cols || row >= self.rows {
            return None;
        }
        self.cells
            .get(row * self.cols + col)
            .copied()
            .filter(|s| *s > 0)
    }

    /// The cells of a sector.
    pub fn sector_cells(&self, sector: u32) -> Vec<(usize, usize)> {
        (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (c, r)))
            .filter(|&(c, r)| self.sector_at(c, r) == Some(sector))
            .collect()
    }

    /// The sector under a pixel.
    pub fn sector_at_px(&self, x: f32, y: f32) -> Option<u32> {
        let m = self.map();
        if !m.contains(x, y) {
            return None;
        }
        let c = ((x - m.x) / self.cell_px()) as usize;
        let r = ((y - m.y) / self.cell_px()) as usize;
        self.sector_at(c, r)
    }

    /// Whether a box of half-size `h` around (x, y) lies inside the sector, `margin` pixels
    /// clear of its edges.
    fn box_inside(&self, sector: u32, x: f32, y: f32, h: f32, margin: f32) -> bool {
        let d = h + margin;
        [
            (-d, -d),
            (d, -d),
            (-d, d),
            (d, d),
            (0.0, -d),
            (0.0, d),
            (-d, 0.0),
            (d, 0.0),
        ]
        .iter()
        .all(|(dx, dy)| self.sector_at_px(x + dx, y + dy) == Some(sector))
    }

    /// Where the label point of a sector lands (moon.toml `label`).
    pub fn label_px(&self, data: &GameData, sector: u32) -> Option<(f32, f32)> {
        let s = data.moon.sector(sector)?;
        Some(self.px(s.label[0] as f32, s.label[1] as f32))
    }

    /// Where a sector's badge, icon and outpost token go: the first of the layout's candidate
    /// placements that keeps all three inside the sector.
    pub fn placement(&self, data: &GameData, layout: &Layout, sector: u32) -> SectorPlacement {
        let m = &layout.board.moon;
        let (lx, ly) = self.label_px(data, sector).unwrap_or_else(|| {
            let cells = self.sector_cells(sector);
            cells
                .first()
                .map(|&(c, r)| {
                    let rc = self.cell_rect(c, r);
                    (rc.cx(), rc.cy())
                })
                .unwrap_or((0.0, 0.0))
        });
        let has_icon = data
            .moon
            .sector(sector)
            .is_some_and(|s| !s.structures.is_empty());
        let at = |o: [f32; 2]| (lx + o[0], ly + o[1]);
        if !has_icon {
            // Only the badge and the token: badge on the label point, token beside it.
            let d = m.badge_radius + m.token_px / 2.0 + 3.0;
            let token = [[-d, 0.0], [d, 0.0], [0.0, d], [0.0, -d]]
                .into_iter()
                .find(|o| {
                    let (tx, ty) = at(*o);
                    self.box_inside(sector, tx, ty, m.token_px / 2.0, 1.0)
                })
                .unwrap_or([-d, 0.0]);
            return SectorPlacement {
                badge: (lx, ly),
                icon: (lx, ly),
                token: at(token),
            };
        }
        let fits = |pl: &super::layout::Placement| {
            let (bx, by) = at(pl.badge);
            let (tx, ty) = at(pl.token);
            let (ix, iy) = at(pl.icon);
            self.box_inside(sector, bx, by, m.badge_radius, 1.0)
                && self.box_inside(sector, tx, ty, m.token_px / 2.0, 1.0)
                && self.box_inside(sector, ix, iy, m.icon_px / 2.0, 0.0)
        };
        let chosen = m
            .placements
            .iter()
            .find(|pl| fits(pl))
            .or(m.placements.last())
            .copied()
            .unwrap_or(super::layout::Placement {
                badge: [0.0, 0.0],
                icon: [0.0, 0.0],
                token: [0.0, 0.0],
            });
        SectorPlacement {
            badge: at(chosen.badge),
            icon: at(chosen.icon),
            token: at(chosen.token),
        }
    }

    /// A pixel that shows nothing but the sector's fill: away from its badge, icon, token and
    /// borders. Pixel tests read the sector's colour here.
    pub fn probe(&self, data: &GameData, layout: &Layout, sector: u32) -> Option<(u32, u32)> {
        let m = &layout.board.moon;
        let pl = self.placement(data, layout, sector);
        let keep_out = [
            (pl.badge, m.badge_radius + 3.0),
            (pl.icon, m.icon_px * 0.9 + 3.0),
            (pl.token, m.token_px * 0.75 + 3.0),
        ];
        let clear = |x: f32, y: f32| {
            keep_out
                .iter()
                .all(|((cx, cy), r)| (x - cx).abs() > *r || (y - cy).abs() > *r)
                && self.box_inside(sector, x, y, m.double_line_px / 2.0 + 2.0, 1.0)
        };
        let cell = self.cell_px();
        let mut candidates = Vec::new();
        for (c, r) in self.sector_cells(sector) {
            let rc = self.cell_rect(c, r);
            candidates.push((rc.cx(), rc.cy()));
            for k in [cell * 0.3, cell * 0.36] {
                for (dx, dy) in [(-k, -k), (k, -k), (-k, k), (k, k)] {
                    candidates.push((rc.cx() + dx, rc.cy() + dy));
                }
            }
        }
        candidates
            .into_iter()
            .find(|&(x, y)| clear(x, y))
            .map(|(x, y)| (x.round() as u32, y.round() as u32))
    }
}

/// Size of an outpost space under a Belt asteroid.
pub const BELT_OUTPOST_PX: f32 = 22.0;

impl MoonGeometry {
    /// Centre of outpost space `k` (0-based) of Belt asteroid `asteroid` (data.belt.asteroids
    /// order): a row under the asteroid.
    pub fn belt_outpost_space(
        &self,
        data: &GameData,
        layout: &Layout,
        asteroid: usize,
        k: usize,
    ) -> Option<(f32, f32)> {
        let a = data.belt.asteroids.get(asteroid)?;
        let (x, y) = self.px(a.pos[0] as f32, a.pos[1] as f32);
        let r = layout.board.belt.asteroid_px / 2.0;
        let sq = BELT_OUTPOST_PX;
        let row_w = a.outpost_spaces as f32 * (sq + 2.0) - 2.0;
        Some((
            x - row_w / 2.0 + k as f32 * (sq + 2.0) + sq / 2.0,
            y + r + sq / 2.0 + 2.0,
        ))
    }
}

/// The company tracks panel: one row per company (in company order).
#[derive(Debug, Clone)]
pub struct TrackGeometry {
    rows: [Rect; 4],
    label_px: f32,
    /// Spaces drawn per row (the longest track in play + 1).
    pub spaces: usize,
}

impl TrackGeometry {
    /// Height of the strip at the top of a row holding the share icons.
    pub const STRIP: f32 = 26.0;
    /// Height of the strip at the bottom of a row holding barrier and threshold coins (and
    /// what each threshold unlocks).
    pub const BOTTOM_STRIP: f32 = 28.0;
    /// Height of the strip above it holding the space numbers.
    pub const NUMBERS: f32 = 20.0;

    /// `tracks` are the track ids per company (SeatView::tracks).
    pub fn new(data: &GameData, layout: &Layout, tracks: &[String]) -> TrackGeometry {
        let t = &layout.board.tracks;
        let n = 4.0;
        let row_h = (t.rect.h - t.gap * (n - 1.0)) / n;
        let rows = [0, 1, 2, 3].map(|i| {
            Rect::new(
                t.rect.x,
                t.rect.y + i as f32 * (row_h + t.gap),
                t.rect.w,
                row_h,
            )
        });
        let spaces = tracks
            .iter()
            .filter_map(|id| data.track(id))
            .map(|tr| tr.last_space as usize + 1)
            .max()
            .unwrap_or(1)
            .max(1);
        TrackGeometry {
            rows,
            label_px: t.label_px,
            spaces,
        }
    }

    pub fn row(&self, c: Company) -> Rect {
        self.rows[c.index()]
    }

    /// The label box at the left of a row.
    pub fn label(&self, c: Company) -> Rect {
        let r = self.row(c);
        Rect::new(r.x, r.y, self.label_px, r.h)
    }

    fn space_w(&self, c: Company) -> f32 {
        let r = self.row(c);
        (r.w - self.label_px - 6.0) / self.spaces as f32
    }

    /// The cell of space `space` (0 = start) in a company's row.
    pub fn space(&self, c: Company, space: usize) -> Rect {
        let r = self.row(c);
        let w = self.space_w(c);
        Rect::new(r.x + self.label_px + 6.0 + space as f32 * w, r.y, w, r.h)
    }

    /// The part of a space cell where seat markers stand.
    pub fn marker_area(&self, c: Company, space: usize) -> Rect {
        let s = self.space(c, space);
        let top = Self::STRIP;
        Rect::new(
            s.x,
            s.y + top,
            s.w,
            s.h - top - Self::NUMBERS - Self::BOTTOM_STRIP,
        )
    }
}
