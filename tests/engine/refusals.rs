//! A refusal's message: its arguments kept, except inside a legality question, where they are
//! never read and so never formatted (moved here from the crate's unit tests).

use skymines::engine::{reasons_unread, Message, RuleError};

fn sector_message() -> Message {
    Message::new("rule.no_such_sector", &[("sector", &7u8)])
}

#[test]
fn refusals_keep_their_arguments_outside_a_legality_question() {
    let formatted = sector_message();
    assert_eq!(formatted.args, vec![("sector", "7".to_string())]);
    let unread = reasons_unread(sector_message);
    assert_eq!(unread.key, "rule.no_such_sector");
    assert!(unread.args.is_empty(), "{unread:?}");
    // Nested questions and an unwinding one put the setting back.
    reasons_unread(|| reasons_unread(|| ()));
    assert!(reasons_unread(sector_message).args.is_empty());
    let unwound = std::panic::catch_unwind(|| reasons_unread(|| panic!("inside")));
    assert!(unwound.is_err());
    assert_eq!(sector_message(), formatted);
    assert!(RuleError::Illegal(formatted).to_string().contains('7'));
}
