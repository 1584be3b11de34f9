//! The lessons' and puzzles' pages (docs/web.md, "Lessons and puzzles"): every course at
//! `/learn/<game>` and every shipped puzzle at `/puzzle/<id>`, with no token; each board drawn
//! and described; an answer sent by the form checked by the rules engine and the lesson (or the
//! puzzle's proof), without script; what is not one answered by the one 404.

mod common;

use common::site::*;
use muster_core::learn::course;
use muster_core::learn::puzzles::set;
use muster_rules::GameId;
use scraper::{Html, Selector};

fn select<'a>(doc: &'a Html, selector: &str) -> Vec<scraper::ElementRef<'a>> {
    doc.select(&Selector::parse(selector).unwrap()).collect()
}

fn text_of(doc: &Html, selector: &str) -> String {
    select(doc, selector)
        .iter()
        .map(|e| e.text().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `path` with the query `pairs`, each value encoded.
fn asking(path: &str, pairs: &[(&str, &str)]) -> String {
    let query: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", muster_web::html::encoded(v)))
        .collect();
    format!("{path}?{}", query.join("&"))
}

#[test]
fn every_course_shows_each_lesson_with_its_board_and_form() {
    let site = site();
    let index = Html::parse_document(&get(&site, "/learn").text());
    for game in GameId::ALL.into_iter().filter(|g| !course(*g).is_empty()) {
        let path = format!("/learn/{game}");
        assert_eq!(
            select(&index, &format!("a[href=\"{path}\"]")).len(),
            1,
            "{path}"
        );
        let page = get(&site, &path);
        assert_eq!(page.status, 200, "{path}");
        let doc = Html::parse_document(&page.text());
        let sections = select(&doc, "section.lesson");
        assert_eq!(sections.len(), course(game).len(), "{path}");
        for (i, lesson) in course(game).iter().enumerate() {
            let n = i + 1;
            let section = format!("#lesson-{n}");
            assert!(text_of(&doc, &format!("{section} .task")).contains(lesson.task));
            let img = select(&doc, &format!("{section} img"))[0];
            let alt = img.value().attr("alt").unwrap_or_default();
            assert!(alt.len() > 10, "{path} {n}: described: {alt:?}");
            let png = get(&site, img.value().attr("src").unwrap());
            assert_eq!(png.header("content-type"), Some("image/png"));
            let (w, h) = png_size(&png.body).expect("a PNG");
            assert!(w >= 300 && h >= 300, "{path} {n}: {w}×{h}");
            // Each answer box has its label.
            assert_eq!(
                select(&doc, &format!("{section} label[for=answer-{n}]")).len(),
                1
            );
        }
    }
}

#[test]
fn a_lesson_is_answered_through_its_form_wrong_then_step_by_step_to_solved() {
    let site = site();
    // The Third Edition's wanderers (lesson 7): a wrong try, then both wanderers home.
    let wrong = get(
        &site,
        &asking("/learn/lanrick", &[("lesson", "7"), ("answer", "b3-a3")]),
    );
    let doc = Html::parse_document(&wrong.text());
    let said = text_of(&doc, "#lesson-7 .verdict");
    assert!(said.starts_with("b3-a3:"), "{said}");
    assert!(said.contains("Try again"), "{said}");
    let first = get(
        &site,
        &asking("/learn/lanrick", &[("lesson", "7"), ("answer", "f7-e8")]),
    );
    let doc = Html::parse_document(&first.text());
    assert!(text_of(&doc, "#lesson-7 .verdict").contains("other wanderer"));
    // The form carries the decisions so far; the board shows them.
    let moves = select(&doc, "#lesson-7 input[name=moves]")[0]
        .value()
        .attr("value")
        .unwrap()
        .to_string();
    assert_eq!(moves, "f7-e8");
    let src = select(&doc, "#lesson-7 img")[0]
        .value()
        .attr("src")
        .unwrap()
        .to_string();
    assert!(src.ends_with("moves=f7-e8"), "{src}");
    assert_eq!(get(&site, &src).status, 200);
    let done = get(
        &site,
        &asking(
            "/learn/lanrick",
            &[("lesson", "7"), ("moves", &moves), ("answer", "f6-h6")],
        ),
    );
    let doc = Html::parse_document(&done.text());
    assert!(text_of(&doc, "#lesson-7 .verdict").starts_with("Solved!"));
    assert!(
        select(&doc, "#lesson-7 form").is_empty(),
        "no form once solved"
    );
}

#[test]
fn every_puzzle_has_its_page_and_its_solution_is_accepted_there() {
    let site = site();
    let index = Html::parse_document(&get(&site, "/puzzles").text());
    assert_eq!(select(&index, "ul.puzzles a").len(), set().len());
    for entry in set() {
        let path = format!("/puzzle/{}", entry.id);
        let page = get(&site, &path);
        assert_eq!(page.status, 200, "{path}");
        let doc = Html::parse_document(&page.text());
        assert!(
            text_of(&doc, ".task").contains(entry.theme.task()),
            "{path}"
        );
        let img = select(&doc, "main img")[0]
            .value()
            .attr("src")
            .unwrap()
            .to_string();
        assert_eq!(get(&site, &img).header("content-type"), Some("image/png"));
        let solved = get(&site, &asking(&path, &[("answer", &entry.answer)]));
        let doc = Html::parse_document(&solved.text());
        assert!(text_of(&doc, ".verdict").starts_with("Solved"), "{path}");
        let after = select(&doc, "main img")[0]
            .value()
            .attr("src")
            .unwrap()
            .to_string();
        assert!(after.contains("?after="), "{after}");
        assert_eq!(get(&site, &after).status, 200, "{after}");
    }
    // A wrong decision is told what it did; an illegal one why; nothing else answers.
    let entry = set().iter().find(|e| e.game == GameId::Lanrick).unwrap();
    let path = format!("/puzzle/{}", entry.id);
    let refused = get(&site, &asking(&path, &[("answer", "a1-a1")]));
    let doc = Html::parse_document(&refused.text());
    assert!(text_of(&doc, ".verdict").starts_with("a1-a1:"));
    for missing in [
        "/puzzle/lanrick-000000".to_string(),
        format!("{path}/other.png"),
        format!("{path}/board.png?after=a1-a1"),
        "/learn/lanko103".into(),
        "/learn/lanrick/11.png".into(),
        format!("/learn/lanrick/1.png?moves={}", "a1|".repeat(60)),
    ] {
        assert_eq!(get(&site, &missing).status, 404, "{missing}");
    }
}
