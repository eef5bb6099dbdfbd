//! UBGI transcripts: the handshake, keys, decisions, and garbage input
//! answered with `error` lines while the engine carries on.

use kotra::eval::{Evaluator, shipped_model};
use kotra::ubgi::Engine;

fn transcript(input: &str) -> Vec<String> {
    let eval = Evaluator::new(shipped_model().unwrap());
    let mut out = Vec::new();
    Engine::new(&eval).run(input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn handshake_and_keys() {
    let out = transcript(
        "ubgi\nisready\nset engine.ply 2\nget engine.ply\nget game.variant\nkeys\nquit\nisready\n",
    );
    assert_eq!(out[0], "id name kotra-ai");
    assert_eq!(out[2], "proto 0.2");
    let ok = out.iter().position(|l| l == "ubgiok").unwrap();
    assert!(
        out[..ok]
            .iter()
            .any(|l| l.starts_with("key engine.ply int default 1"))
    );
    assert_eq!(out[ok + 1], "readyok");
    assert_eq!(out[ok + 2], "value engine.ply 2");
    assert_eq!(out[ok + 3], "value game.variant backgammon");
    assert!(out[ok + 4].starts_with("key "));
    // Nothing after quit is answered.
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 1);
}

#[test]
fn chequer_and_cube_decisions() {
    let out = transcript(
        "newgame\nposition gnubgid 4PPgQSDgc/ABMA:MIESAAAAAAAE\ndice 5 4\ngo chequer\n\
         position gnubgid AQAAIAAAAAAAAA:MAEAAAAAAAAE\ngo cube\n\
         position gnubgid AQAAIAAAAAAAAA:MBkAAAAAAAAE\ngo cube\n\
         position gnubgid 4HPwATDgc/ABMA:MAEAAAAAAAAE\ngo cube\n\
         position gnubgid 4HPwATDgc/ABMA:MBkAAAAAAAAE\ngo cube\n",
    );
    let answers: Vec<&String> = out.iter().filter(|l| !l.starts_with("info")).collect();
    // 54 in the oracle's example position: gnubg's 2-ply puts its two
    // best moves 0.0005 apart and every other one at least 0.048 behind,
    // so either is a sound answer and nothing else is.
    assert!(
        ["bestmove 24/20 6/1*", "bestmove 24/20 13/8"].contains(&answers[0].as_str()),
        "{}",
        answers[0]
    );
    // 34/36 to win on the last roll: double, and the opponent passes.
    assert_eq!(answers[1], "bestcube double");
    assert_eq!(answers[2], "bestcube pass");
    // The opening position: no double, take.
    assert_eq!(answers[3], "bestcube nodouble");
    assert_eq!(answers[4], "bestcube take");
    assert!(out.iter().any(|l| l.starts_with("info nd ")));
}

#[test]
fn pruning_is_a_key_and_the_full_tree_agrees_on_a_clear_move() {
    let out = transcript(
        "get engine.prune\nset engine.prune 0\nget engine.prune\nset engine.prune 65\n\
         set engine.ply 3\nposition gnubgid 4HPwATDgc/ABMA:MIEFAAAAAAAA\ndice 3 1\ngo chequer\n",
    );
    assert_eq!(out[0], "value engine.prune 4");
    assert_eq!(out[1], "value engine.prune 0");
    assert!(out[2].starts_with("error bad_value"), "{out:?}");
    // 31 from the opening at 2-ply with every reply searched.
    assert_eq!(out.last().unwrap(), "bestmove 8/5 6/5");
}

#[test]
fn the_preselection_is_a_key_and_the_network_agrees_on_a_clear_move() {
    let out = transcript(
        "get engine.preselect\nset engine.preselect pubeval\nget engine.preselect\n\
         get engine.prune\nset engine.preselect oracle\nset engine.preselect network\n\
         get engine.prune\nset engine.prune 6\nset engine.preselect pubeval\nget engine.prune\n\
         set engine.preselect network\nset engine.prune 4\n\
         set engine.ply 3\nposition gnubgid 4HPwATDgc/ABMA:MIEFAAAAAAAA\ndice 3 1\ngo chequer\n",
    );
    assert_eq!(out[0], "value engine.preselect network");
    assert_eq!(out[1], "value engine.preselect pubeval");
    // Unset, the width follows the pre-selector: PubEval's own 8.
    assert_eq!(out[2], "value engine.prune 8");
    assert!(
        out[3].starts_with("error bad_value") && out[3].contains("pubeval or network"),
        "{out:?}"
    );
    assert_eq!(out[4], "value engine.prune 4");
    // Set, it stays whatever pre-selects.
    assert_eq!(out[5], "value engine.prune 6");
    // 31 from the opening at 2-ply, the network keeping 4.
    assert_eq!(out.last().unwrap(), "bestmove 8/5 6/5");
}

#[test]
fn forfeited_roll_is_a_pass() {
    // Mover on the bar against a closed board: no legal move.
    let out = transcript("position gnubgid 27Y5AADg/wcAQA\ndice 6 4\ngo chequer\n");
    assert_eq!(out.last().unwrap(), "bestmove pass", "{out:?}");
}

#[test]
fn garbage_gets_error_lines_and_the_engine_carries_on() {
    let out = transcript(
        "hello\ngo chequer\nposition gnubgid nonsense\nposition gnubgid 4HPwATDgc/ABMA:MAEAAAAAAAAE\n\
         go chequer\ndice 0 9\ndice 3\nset engine.ply 0\nset engine.nope 1\nget nope\ngo sideways\n\
         set engine.cubeful maybe\nposition fen abc\n\u{1F3B2}\nisready\n",
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 13, "{out:#?}");
    assert!(errors[0].starts_with("error bad_command"));
    assert!(errors[1].starts_with("error bad_state"));
    assert!(errors[2].starts_with("error bad_value"));
    assert!(
        errors[3].starts_with("error bad_state"),
        "no dice yet: {}",
        errors[3]
    );
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn cubeless_play_answers_the_cubeless_searchs_best_move() {
    use kotra::backgammon::{Dice, MoveList, legal_moves};
    use kotra::cube::CubeState;
    use kotra::search::{SearchSettings, Searcher};
    // A middle-game 42 at 2-ply: the move and its equity are the top of a
    // cubeless ranking, and the cube stays cubeful for the cube decision
    // that follows (the opening position: no double).
    let out = transcript(
        "set engine.ply 3\nset engine.cubeful false\nposition gnubgid jGfkASjg8wcBAQ:MAEAAAAAAAAE\n\
         dice 4 2\ngo chequer\nposition gnubgid 4HPwATDgc/ABMA:MAEAAAAAAAAE\ngo cube\n",
    );
    let eval = Evaluator::new(shipped_model().unwrap());
    let pos = kotra::notation::position_id::decode("jGfkASjg8wcBAQ").unwrap();
    let mut list = MoveList::new();
    legal_moves(&pos, Dice::new(4, 2).unwrap(), &mut list);
    let best = Searcher::new(&eval).with_cubeless(true).rank_moves(
        &list,
        &CubeState::money(),
        &SearchSettings::world_class(2),
    )[0];
    let info = out.iter().find(|l| l.starts_with("info equity")).unwrap();
    assert_eq!(
        info,
        &format!(
            "info equity {:.5} ply 2 candidates {}",
            best.equity,
            list.len()
        )
    );
    let text = kotra::notation::move_text::format(&pos, &list.as_slice()[best.index].play);
    assert!(out.contains(&format!("bestmove {text}")), "{out:?}");
    assert!(out.contains(&"bestcube nodouble".to_string()), "{out:?}");
}

#[test]
fn a_refused_position_forgets_the_one_before() {
    // A good position with its dice, then a refused one: `go` must not
    // analyse the old position as if it were the new.
    let out = transcript(
        "position gnubgid 4HPwATDgc/ABMA:cAkLAAAAAAAA\ngo chequer\n\
         position gnubgid 4HPwATDgc/ABMA:nonsense\ngo chequer\ngo cube\nisready\n",
    );
    assert!(out.iter().any(|l| l.starts_with("bestmove")), "{out:#?}");
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 3, "{out:#?}");
    assert!(errors[0].starts_with("error bad_value"));
    assert!(errors[1].starts_with("error bad_state"), "{}", errors[1]);
    assert!(errors[2].starts_with("error bad_state"), "{}", errors[2]);
}
