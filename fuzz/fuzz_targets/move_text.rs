//! Move text against a position: never a panic, and a move that `find`
//! accepts is one of the roll's legal moves, whose own text finds it again.
//! Input: a Position ID line, a roll line, then the move text.
#![no_main]
use kotra::backgammon::{Dice, MoveList, legal_moves};
use kotra::notation::{move_text, position_id};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = move_text::parse(text);
    let mut lines = text.splitn(3, '\n');
    let (Some(id), Some(roll), Some(mv)) = (lines.next(), lines.next(), lines.next()) else {
        return;
    };
    let Ok(pos) = position_id::decode(id) else { return };
    let Ok(dice) = roll.parse::<Dice>() else { return };
    let mut list = MoveList::new();
    legal_moves(&pos, dice, &mut list);
    if let Ok(found) = move_text::find(&pos, &list, mv) {
        assert!(list.iter().any(|c| c.position == found.position));
        let written = move_text::format(&pos, &found.play);
        let again = move_text::find(&pos, &list, &written).unwrap();
        assert_eq!(again.position, found.position, "{mv:?} -> {written}");
    }
});
