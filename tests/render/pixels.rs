//! Pixel-level checks of the board snapshots at positions taken from the board geometry data
//! (moon.toml's grid and labels, tracks.toml, layout.toml), privacy of the public images,
//! the cache, sizes and text sizes.

use crate::render_support::*;
use crate::support::text as text_support;
use skymines::data::{BoardSide, Company};
use skymines::engine::state::SlotCard;
use skymines::engine::view::SlotView;
use skymines::engine::{self, BoardSide as EngineSide, GameOptions};
use skymines::render::geometry::{MoonGeometry, TrackGeometry};
use skymines::render::{self, RenderError, Renderer};

fn company_colour(c: Company) -> skymines::render::layout::Colour {
    let r = renderer();
    let name = &data().moon.company(c).expect("company").colour;
    r.layout().company_colour(name)
}

#[test]
fn an_outpost_colours_its_sector_and_only_its_sector() {
    let r = renderer();
    let d = data();
    let geom = MoonGeometry::new(d, r.layout());
    let mut state = new_game(2, None, 5);
    let empty = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
    let fill = r.layout().board.moon.sector_fill;
    let fill_alt = r.layout().board.moon.sector_fill_alt;
    for (i, sector) in d.moon.sectors.iter().enumerate() {
        let probe = geom
            .probe(d, r.layout(), sector.id)
            .unwrap_or_else(|| panic!("sector {} has a probe pixel", sector.id));
        assert_eq!(
            geom.sector_at_px(probe.0 as f32, probe.1 as f32),
            Some(sector.id),
            "the probe of sector {} lies in it",
            sector.id
        );
        let before = pixel(&empty, probe);
        assert!(
            before == fill || before == fill_alt,
            "sector {} is unoccupied at the start: {before:?}",
            sector.id
        );
        let company = Company::from_index(i);
        state.sectors = vec![None; d.moon.sectors.len()];
        state.sectors[sector.id as usize - 1] = Some(company);
        let img = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
        assert_eq!(
            pixel(&img, probe),
            company_colour(company),
            "an outpost of {company:?} in sector {} colours the sector",
            sector.id
        );
        // The other sectors keep their fill.
        for other in d.moon.sectors.iter().filter(|o| o.id != sector.id) {
            let p = geom.probe(d, r.layout(), other.id).expect("probe");
            assert_eq!(
                pixel(&img, p),
                pixel(&empty, p),
                "sector {} unchanged when {} is taken",
                other.id,
                sector.id
            );
        }
    }
}

#[test]
fn a_marker_moved_changes_that_track_space() {
    let r = renderer();
    let d = data();
    let mut state = new_game(3, None, 9);
    let seat_colour = {
        let id = &d.starting_cards.colours[state.seats[0].colour].id;
        r.layout().seat_style(id).expect("style").colour
    };
    for c in Company::ALL {
        let view = engine::view(d, &state, None);
        let g = TrackGeometry::new(d, r.layout(), &view.tracks);
        let centre = |space: usize| {
            let a = g.marker_area(c, space);
            (a.cx() as u32, a.cy() as u32)
        };
        for s in state.seats.iter_mut() {
            s.track_pos = [0; 4];
        }
        state.seats[0].track_pos[c.index()] = 3;
        let at3 = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
        state.seats[0].track_pos[c.index()] = 6;
        let at6 = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
        assert_eq!(
            pixel(&at3, centre(3)),
            seat_colour,
            "{c:?}: marker on space 3"
        );
        assert_ne!(pixel(&at6, centre(3)), seat_colour, "{c:?}: space 3 left");
        assert_eq!(
            pixel(&at6, centre(6)),
            seat_colour,
            "{c:?}: marker on space 6"
        );
        assert_ne!(
            pixel(&at3, centre(6)),
            seat_colour,
            "{c:?}: space 6 empty before"
        );
        // Nothing else on the row changed but those two spaces.
        let row = g.row(c);
        let (s3, s6) = (g.space(c, 3), g.space(c, 6));
        for y in row.y as u32..row.bottom() as u32 {
            for x in (row.x + row.w * 0.16) as u32..row.right() as u32 {
                let (fx, fy) = (x as f32, y as f32);
                let near = |s: &skymines::render::layout::Rect| {
                    fx >= s.x - s.w * 0.3 && fx < s.right() + s.w * 0.3 && fy >= s.y
                };
                if !near(&s3) && !near(&s6) {
                    assert_eq!(
                        at3.get_pixel(x, y),
                        at6.get_pixel(x, y),
                        "{c:?}: pixel {x},{y} away from the moved marker"
                    );
                }
            }
        }
    }
}

#[test]
fn the_public_player_image_is_the_same_whatever_the_hand_holds() {
    let r = renderer();
    let d = data();
    let mut state = new_game(3, None, 21);
    // Seat 0 plans a card face down.
    let hand = state.seats[0].hand.clone();
    assert!(hand.len() >= 3, "a hand to vary");
    let planned = hand[0];
    state.seats[0].hand.retain(|c| *c != planned);
    state.seats[0].slots[1] = Some(SlotCard::Planned(planned));
    let spectator = engine::view(d, &state, None);
    let own = engine::view(d, &state, Some(0));
    assert!(matches!(own.seats[0].slots[1], SlotView::OwnPlanned(_)));
    let base = r.player_image(d, &spectator, 0, false).expect("image");
    assert_eq!(
        r.player_image(d, &own, 0, false).expect("image"),
        base,
        "the owner's view makes the same public image"
    );
    // Other hands of the same size, another planned card.
    let others: Vec<u8> = (0..d.cards.len() as u8)
        .filter(|c| !state.seats.iter().any(|s| s.owned_cards().any(|o| o == *c)))
        .collect();
    let mut changed = state.clone();
    let n = changed.seats[0].hand.len();
    changed.seats[0].hand = others[..n].to_vec();
    changed.seats[0].slots[1] = Some(SlotCard::Planned(others[n]));
    for seat_view in [None, Some(0)] {
        let v = engine::view(d, &changed, seat_view);
        assert_eq!(
            r.player_image(d, &v, 0, false).expect("image"),
            base,
            "public image with another hand ({seat_view:?})"
        );
        assert_eq!(
            r.board_image(d, &v, BoardSide::Moon),
            r.board_image(d, &spectator, BoardSide::Moon),
            "board image with another hand ({seat_view:?})"
        );
    }
    // The PNG bytes too, through the public API.
    assert_eq!(
        render::player_png(d, &engine::view(d, &changed, Some(0)), 0, false).expect("png"),
        render::player_png(d, &spectator, 0, false).expect("png")
    );
    // The private image does show the hand.
    let private_a = r.player_image(d, &own, 0, true).expect("image");
    let private_b = r
        .player_image(d, &engine::view(d, &changed, Some(0)), 0, true)
        .expect("image");
    assert_ne!(private_a, private_b, "the private image shows the hand");
    assert_ne!(
        differing_pixels(&private_a, &private_b, 0),
        0,
        "hand differences reach the private pixels"
    );
}

#[test]
fn private_images_need_the_owners_view() {
    let r = renderer();
    let d = data();
    let state = new_game(2, None, 3);
    let spectator = engine::view(d, &state, None);
    let other = engine::view(d, &state, Some(1));
    assert_eq!(
        r.player_png(d, &spectator, 0, true),
        Err(RenderError::NotOwnView { seat: 0 })
    );
    assert_eq!(
        r.player_png(d, &other, 0, true),
        Err(RenderError::NotOwnView { seat: 0 })
    );
    assert_eq!(
        r.player_png(d, &spectator, 7, false),
        Err(RenderError::NoSuchSeat(7))
    );
    assert!(r.player_png(d, &other, 1, true).is_ok());
}

#[test]
fn an_identical_state_is_not_rendered_again() {
    let r = Renderer::new().expect("renderer");
    let d = data();
    let state = position(4, 3, 2);
    let spectator = engine::view(d, &state, None);
    let own = engine::view(d, &state, Some(1));
    let a = r.board_png(d, &spectator).expect("png");
    let b = r.board_png(d, &own).expect("png");
    assert_eq!(a, b, "the board is public: the same for every viewer");
    assert_eq!(r.stats().renders, 1);
    assert_eq!(r.stats().cache_hits, 1);
    r.player_png(d, &spectator, 1, false).expect("png");
    r.player_png(d, &own, 1, false).expect("png");
    assert_eq!(
        r.stats().renders,
        2,
        "public player image cached across viewers"
    );
    r.player_png(d, &own, 1, true).expect("png");
    r.player_png(d, &own, 1, true).expect("png");
    assert_eq!(r.stats().renders, 3);
    // A change is rendered.
    let mut moved = state.clone();
    moved.seats[0].coins += 1;
    r.board_png(d, &engine::view(d, &moved, None)).expect("png");
    assert_eq!(r.stats().renders, 4);
}

#[test]
fn images_are_small_and_text_is_legible_at_preview_width() {
    let r = renderer();
    let d = data();
    let min = r.layout().canvas.min_text_px;
    assert!(
        min * 550.0 / r.layout().canvas.width as f32 >= 9.0,
        "18 px at 1100 px is 9 px at Discord's 550 px preview"
    );
    for (seed, players, rounds) in [(1, 4, 7), (2, 2, 4), (3, 3, 6)] {
        let state = position(seed, players, rounds);
        let view = engine::view(d, &state, Some(0));
        for png in [
            r.board_png(d, &view).expect("png"),
            r.player_png(d, &view, 0, false).expect("png"),
            r.player_png(d, &view, 0, true).expect("png"),
        ] {
            assert!(png.len() < 1024 * 1024, "{} bytes", png.len());
            let img = decode(&png);
            assert_eq!(img.width(), r.layout().canvas.width);
        }
        assert!(r.smallest_text(d, &view) >= min);
    }
}

#[test]
fn layouts_hold_for_one_to_four_players_and_luna() {
    let r = renderer();
    let d = data();
    for (players, luna) in [
        (1, Some(2)),
        (2, None),
        (2, Some(5)),
        (3, None),
        (3, Some(8)),
        (4, None),
    ] {
        let state = new_game(players, luna, 17);
        let seats = state.seats.len();
        let view = engine::view(d, &state, Some(0));
        r.board_png(d, &view).expect("board");
        for seat in 0..seats {
            r.player_png(d, &view, seat, false).expect("public player");
        }
        r.player_png(d, &view, 0, true).expect("private player");
        let text = r.summary_text(d, &view);
        for s in &state.seats {
            assert!(text.contains(&s.name), "{} in the summary", s.name);
        }
    }
}

#[test]
fn the_belt_side_draws_its_asteroids_outposts_and_shuttles() {
    let r = renderer();
    let d = data();
    let options = GameOptions {
        players: 2,
        seed: 2,
        board: EngineSide::Belt,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(d, &options, &skymines::sim::seat_names(2)).expect("belt");
    let view = engine::view(d, &state, None);
    assert!(view.belt.is_some(), "a Belt game has Belt state");
    assert_eq!(render::side_of(&view), BoardSide::Belt);
    let empty = decode(&r.board_png(d, &view).expect("belt board"));
    let moon = r.board_image(d, &view, BoardSide::Moon);
    assert_ne!(empty, moon, "the Belt is drawn, not the Moon");
    let geom = MoonGeometry::new(d, r.layout());
    let radius = r.layout().board.belt.asteroid_px / 2.0;
    for a in &d.belt.asteroids {
        let (x, y) = geom.px(a.pos[0] as f32, a.pos[1] as f32);
        // Left of the number, inside the asteroid: its grey rock colour.
        let rock = pixel(&empty, ((x - radius * 0.6) as u32, y as u32)).0;
        assert!(
            rock[0].abs_diff(rock[2]) < 40 && rock[0] > 100,
            "asteroid {} at {x},{y} is drawn ({rock:?})",
            a.id
        );
    }
    // An outpost on each asteroid's first space shows its company's colour there.
    let belt = state.belt.as_mut().expect("belt state");
    for (i, spaces) in belt.outposts.iter_mut().enumerate() {
        spaces[0] = Some(Company::from_index(i));
    }
    let taken = r.board_image(d, &engine::view(d, &state, None), BoardSide::Belt);
    for (i, a) in d.belt.asteroids.iter().enumerate() {
        let (cx, cy) = geom
            .belt_outpost_space(d, r.layout(), i, 0)
            .expect("outpost space");
        // Inside the token's lower left corner, clear of its letter.
        let probe = ((cx - 9.0) as u32, (cy + 8.0) as u32);
        assert_ne!(
            pixel(&empty, probe),
            pixel(&taken, probe),
            "asteroid {}",
            a.id
        );
        assert_eq!(
            pixel(&taken, probe),
            company_colour(Company::from_index(i)),
            "outpost on asteroid {}",
            a.id
        );
    }
    assert!(render::summary_text(d, &engine::view(d, &state, None)).contains("Belt outposts"));
}

#[test]
fn the_summary_states_the_position_without_secrets() {
    let r = renderer();
    let d = data();
    let state = position(8, 3, 3);
    let own = engine::view(d, &state, Some(0));
    let text = render::summary_text(d, &own);
    assert!(text.contains(&format!("round {}", state.round)), "{text}");
    for c in Company::ALL {
        assert!(text.contains(d.company_name(c).split_whitespace().next().expect("name")));
    }
    assert!(text.len() <= 1500, "{} characters", text.len());
    // The hand is private: the public summary is the same from any seat's view.
    assert_eq!(
        text,
        render::summary_text(d, &engine::view(d, &state, None))
    );
    let private = r
        .player_summary_text(d, &own, 0, true)
        .expect("owner's text");
    assert!(private.contains("Your hand"));
    let public = r
        .player_summary_text(d, &own, 0, false)
        .expect("public text");
    assert!(!public.contains("Your hand"));
}

#[test]
fn the_missions_strip_shows_who_fulfilled_which_task() {
    let r = renderer();
    let d = data();
    let options = GameOptions {
        players: 3,
        seed: 21,
        missions: true,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(d, &options, &skymines::sim::seat_names(3)).expect("game");
    let without = engine::new_game(
        d,
        &GameOptions {
            missions: false,
            ..options.clone()
        },
        &skymines::sim::seat_names(3),
    )
    .expect("game");
    let plain = r.board_image(d, &engine::view(d, &without, None), BoardSide::Moon);
    let before = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
    // The strip makes the image taller and leaves the board above it as it was.
    let strip = r.layout().board.missions.rect;
    assert_eq!(plain.height(), r.layout().board.height);
    assert!(before.height() as f32 >= strip.bottom());
    for y in (0..plain.height()).step_by(7) {
        for x in (0..plain.width()).step_by(7) {
            assert_eq!(
                plain.get_pixel(x, y),
                before.get_pixel(x, y),
                "pixel {x},{y} above the strip"
            );
        }
    }
    // Seat 1 fulfils the second task of the first face-up mission: its marker appears in the
    // strip, on that card's half, and nowhere else changes.
    let first = state.missions.as_ref().expect("missions").face_up[0];
    let status = state.seats[1].mission.as_mut().expect("status card");
    status.card = Some(first);
    status.fulfilled[1] = true;
    let after = r.board_image(d, &engine::view(d, &state, None), BoardSide::Moon);
    let seat_colour = {
        let id = &d.starting_cards.colours[state.seats[1].colour].id;
        r.layout().seat_style(id).expect("style").colour
    };
    let mut changed_at = Vec::new();
    for y in 0..after.height() {
        for x in 0..after.width() {
            if after.get_pixel(x, y) != before.get_pixel(x, y) {
                changed_at.push((x, y));
            }
        }
    }
    assert!(!changed_at.is_empty(), "the fulfilled task shows");
    let card_right = strip.x + strip.w / 2.0;
    for (x, y) in &changed_at {
        let (fx, fy) = (*x as f32, *y as f32);
        assert!(
            strip.contains(fx, fy) && fx < card_right,
            "pixel {x},{y} changed outside the first card"
        );
    }
    let marker_pixels = changed_at
        .iter()
        .filter(|p| pixel(&after, **p) == seat_colour)
        .count();
    assert!(
        marker_pixels > 50,
        "the seat's marker colour is drawn ({marker_pixels} px)"
    );
}

#[test]
fn german_images_carry_german_labels_and_stay_legible() {
    let r = Renderer::new().expect("renderer");
    let d = data();
    let (en, de) = (
        skymines::text::for_language("en"),
        skymines::text::for_language("de"),
    );
    let min = r.layout().canvas.min_text_px;
    for (seed, players, rounds) in [(1, 4, 7), (2, 2, 4)] {
        let state = position(seed, players, rounds);
        let view = engine::view(d, &state, Some(0));
        assert!(
            r.smallest_text_in(d, &view, de) >= min,
            "German text shrinks too far"
        );
        let pairs = [
            (
                r.board_png_in(d, &view, en).expect("png"),
                r.board_png_in(d, &view, de).expect("png"),
            ),
            (
                r.player_png_in(d, &view, 0, true, en).expect("png"),
                r.player_png_in(d, &view, 0, true, de).expect("png"),
            ),
        ];
        for (english, german) in pairs {
            let (english, german) = (decode(&english), decode(&german));
            assert_eq!(english.dimensions(), german.dimensions());
            assert!(
                differing_pixels(&english, &german, 16) > 200,
                "the German labels differ from the English ones"
            );
        }
        // English stays what the plain entry points (and the golden images) draw.
        assert_eq!(
            r.board_png_in(d, &view, en).expect("png"),
            r.board_png(d, &view).expect("png")
        );
    }
    // The language is part of the cache key: both languages rendered once each, then cached.
    let fresh = Renderer::new().expect("renderer");
    let view = engine::view(d, &position(5, 2, 3), None);
    for texts in [en, de, en, de] {
        fresh.board_png_in(d, &view, texts).expect("png");
    }
    assert_eq!(fresh.stats().renders, 2);
    assert_eq!(fresh.stats().cache_hits, 2);
}

/// Seeded positions with every module, on both sides, for the language checks.
fn every_module_positions() -> Vec<skymines::engine::state::GameState> {
    let mut out = Vec::new();
    for (board, threats, luna, players, rounds, decisions) in [
        (EngineSide::Belt, true, Some(2), 2, 3, 7),
        (EngineSide::Moon, false, Some(3), 3, 5, 3),
        (EngineSide::Belt, true, None, 4, 7, 0),
    ] {
        let options = GameOptions {
            players,
            luna,
            board,
            missions: true,
            threats,
            seed: 40 + players as u64,
            ..GameOptions::default()
        };
        out.push(
            skymines::render::cli::simulate_options(data(), &options, rounds, decisions)
                .expect("the game plays"),
        );
    }
    out
}

/// The English words (2+ letters) of the image, alt-text and component-name templates that no
/// German template contains.
fn english_image_words() -> Vec<String> {
    let (en, de) = (
        skymines::text::for_language("en"),
        skymines::text::for_language("de"),
    );
    let literal = |t: &str| text_support::literal(t).to_lowercase();
    let german: Vec<String> = de
        .keys()
        .filter_map(|k| de.template(k))
        .map(literal)
        .collect();
    let groups = [
        "image.",
        "alt.",
        "phase.",
        "card.",
        "bonus_space.",
        "tile.",
        "threat.",
        "mission.",
    ];
    let mut words: Vec<String> = en
        .keys()
        .filter(|k| groups.iter().any(|g| k.starts_with(g)))
        .filter_map(|k| en.template(k))
        .flat_map(|t| {
            literal(t)
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.chars().count() >= 2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|w| !german.iter().any(|g| g.contains(w.as_str())))
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The English word a German text still holds, if any (ids such as `P-ENERGY-1` aside).
fn english_word_in(text: &str, english: &[String]) -> Option<String> {
    text.split_whitespace()
        .filter(|chunk| {
            !chunk
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
        })
        .flat_map(|chunk| chunk.split(|c: char| !c.is_alphabetic()))
        .map(str::to_lowercase)
        .find(|w| english.contains(w))
}

#[test]
fn german_images_and_alt_texts_ask_for_no_english_words() {
    let r = renderer();
    let d = data();
    let de = skymines::text::for_language("de");
    let english = english_image_words();
    for expected in ["share", "sell", "coins", "round", "planned", "grade"] {
        assert!(
            english.iter().any(|w| w == expected),
            "{expected}: {english:?}"
        );
    }
    for state in every_module_positions() {
        let view = engine::view(d, &state, Some(0));
        let drawn = r.drawn_text_in(d, &view, de);
        assert!(drawn.len() > 100, "the images draw their labels");
        for line in &drawn {
            assert!(
                !skymines::text::has_name_ref(line),
                "a raw reference drawn: {line:?}"
            );
            if let Some(word) = english_word_in(line, &english) {
                panic!("the German image draws the English {word:?} in {line:?}");
            }
        }
        let mut alt = r.summary_text_in(d, &view, de);
        for seat in 0..view.seats.len() {
            let private = seat == 0;
            alt.push('\n');
            alt.push_str(
                &r.player_summary_text_in(d, &view, seat, private, de)
                    .expect("alt text"),
            );
        }
        assert!(
            (alt.contains("Runde") || alt.contains("Spielende")) && alt.contains("Anteilswerte"),
            "{alt}"
        );
        assert!(!skymines::text::has_name_ref(&alt), "{alt}");
        for line in alt.lines() {
            if let Some(word) = english_word_in(line, &english) {
                panic!("the German alt text says the English {word:?} in {line:?}");
            }
        }
        // The check has teeth: the English images and alt text are caught by it.
        let en = skymines::text::for_language("en");
        let english_drawn = r.drawn_text_in(d, &view, en).join("\n");
        assert!(english_word_in(&english_drawn, &english).is_some());
        let english_alt = r.summary_text(d, &view);
        assert!(english_word_in(&english_alt, &english).is_some());
        assert!(english_alt.contains("Share values"), "{english_alt}");
    }
}

#[test]
fn every_text_is_at_least_9_px_high_when_shown_550_px_wide() {
    let r = renderer();
    let d = data();
    let mut states = every_module_positions();
    states.push(position(7, 2, 4));
    let mut checked = 0;
    for state in &states {
        for language in ["en", "de"] {
            let texts = skymines::text::for_language(language);
            let view = engine::view(d, state, Some(0));
            let drawn = r.drawn_in(d, &view, texts);
            for image in std::iter::once(&drawn.board).chain(&drawn.players) {
                let scale = 550.0 / image.width as f32;
                for t in &image.texts {
                    checked += 1;
                    assert!(
                        t.size * scale >= 9.0,
                        "`{}` is {:.1} px high at 550 px wide",
                        t.text,
                        t.size * scale
                    );
                    assert!(
                        t.bounds.x >= 0.0 && t.bounds.right() <= image.width as f32 + 0.5,
                        "`{}` runs off the image ({:?})",
                        t.text,
                        t.bounds
                    );
                }
            }
        }
    }
    assert!(checked > 5000, "only {checked} texts drawn");
}

/// Issue 19 point 5: the threat card's place is drawn only when a threat is in play (a Belt
/// game without threats showed a red, nameless "threat" card).
#[test]
fn the_belt_draws_a_threat_card_only_when_a_threat_is_in_play() {
    let r = renderer();
    let d = data();
    let en = skymines::text::english();
    let word = en.t("image.threat");
    for threats in [false, true] {
        let options = GameOptions {
            players: 2,
            seed: 3,
            board: EngineSide::Belt,
            missions: true,
            threats,
            ..GameOptions::default()
        };
        let state = engine::new_game(d, &options, &skymines::sim::seat_names(2)).expect("belt");
        let view = engine::view(d, &state, None);
        let drawn = r.drawn_in(d, &view, en);
        let said = drawn.board.texts.iter().any(|t| t.text == word);
        assert_eq!(said, threats, "threats: {threats}");
        // And no dark red card sits between shuttle spaces 11 and 16.
        let img = decode(&r.board_png(d, &view).expect("board"));
        let geom = MoonGeometry::new(d, r.layout());
        let rect = geom.rect(d.belt.threat_space.rect.map(|v| v as f32));
        let card = skymines::render::layout::Colour([0x5A, 0x2A, 0x2A]);
        let mut red = 0;
        for y in rect.y as u32..rect.bottom() as u32 {
            for x in rect.x as u32..rect.right() as u32 {
                red += usize::from(pixel(&img, (x, y)) == card);
            }
        }
        assert_eq!(red > 100, threats, "{red} card pixels at its place");
    }
}

/// Issue 19 point 4: the board's mission strip numbers its cards as the text and the player
/// boards do ("mission card 4", "M4").
#[test]
fn the_mission_strip_numbers_its_cards() {
    let r = renderer();
    let d = data();
    let options = GameOptions {
        players: 3,
        seed: 21,
        missions: true,
        ..GameOptions::default()
    };
    let state = engine::new_game(d, &options, &skymines::sim::seat_names(3)).expect("game");
    let face_up = state.missions.as_ref().expect("missions").face_up.clone();
    assert_eq!(face_up.len(), 2);
    let view = engine::view(d, &state, None);
    let drawn = r.drawn_in(d, &view, skymines::text::english());
    for id in face_up {
        let label = format!("M{id}");
        assert!(
            drawn
                .board
                .texts
                .iter()
                .any(|t| t.text == label && t.y > r.layout().board.height as f32),
            "{label} in the strip"
        );
    }
}

/// Issue 19 point 5: with a shuttle on every shuttle space, each shuttle's company letter sits
/// clear of the asteroids, their outpost spaces and every other Belt number (it was drawn
/// up-left of the shuttle whatever lay there).
#[test]
fn shuttle_company_letters_cover_no_asteroid_outpost_space_or_number() {
    use skymines::render::Role;
    let r = renderer();
    let d = data();
    let options = GameOptions {
        players: 2,
        seed: 3,
        board: EngineSide::Belt,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(d, &options, &skymines::sim::seat_names(2)).expect("belt");
    for (i, fp) in d.belt.flight_paths.iter().enumerate() {
        let c = Company::from_index(i % 4);
        state.belt.as_mut().expect("belt").shuttles[i] = Some(c);
        let _ = fp;
    }
    let view = engine::view(d, &state, None);
    let drawn = r.drawn_in(d, &view, skymines::text::english());
    let geom = MoonGeometry::new(d, r.layout());
    let around = |(x, y): (f32, f32), half: f32| (x - half, y - half, x + half, y + half);
    let mut obstacles = Vec::new();
    for (ai, a) in d.belt.asteroids.iter().enumerate() {
        let centre = geom.px(a.pos[0] as f32, a.pos[1] as f32);
        obstacles.push(around(centre, r.layout().board.belt.asteroid_px / 2.0));
        for k in 0..a.outpost_spaces as usize {
            let sq = geom
                .belt_outpost_space(d, r.layout(), ai, k)
                .expect("space");
            obstacles.push(around(
                sq,
                skymines::render::geometry::BELT_OUTPOST_PX / 2.0 - 2.0,
            ));
        }
    }
    let numbers: Vec<_> = drawn
        .board
        .texts
        .iter()
        .filter(|t| matches!(t.role, Some(Role::BeltSpace { .. })))
        .collect();
    let letters = ["S", "M", "A", "T"];
    let mut checked = 0;
    for fp in &d.belt.flight_paths {
        let (x, y) = geom.px(fp.pos[0] as f32, fp.pos[1] as f32);
        let chip = drawn
            .board
            .texts
            .iter()
            .filter(|t| letters.contains(&t.text.as_str()))
            .filter(|t| (t.x - x).hypot(t.y - y) < 30.0)
            .min_by(|a, b| {
                let da = (a.x - x).hypot(a.y - y);
                let db = (b.x - x).hypot(b.y - y);
                da.total_cmp(&db)
            })
            .unwrap_or_else(|| panic!("shuttle {} has its letter", fp.shuttle_space));
        checked += 1;
        let b = chip.bounds;
        let overlaps = |(l, t, rt, bt): (f32, f32, f32, f32)| {
            b.x + 1.0 < rt && b.right() - 1.0 > l && b.y + 1.0 < bt && b.bottom() - 1.0 > t
        };
        for o in &obstacles {
            assert!(
                !overlaps(*o),
                "shuttle {}'s letter covers {o:?}",
                fp.shuttle_space
            );
        }
        for n in &numbers {
            if (n.x - x).abs() < 1.0 && (n.y - y).abs() < 1.0 {
                continue;
            }
            let nb = n.bounds;
            assert!(
                !overlaps((nb.x, nb.y, nb.right(), nb.bottom())),
                "shuttle {}'s letter covers the number {}",
                fp.shuttle_space,
                n.text
            );
        }
    }
    assert_eq!(checked, d.belt.flight_paths.len());
}
