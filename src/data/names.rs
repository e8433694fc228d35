//! The names of components as they reach text: each is a name reference
//! ([`crate::text::name_ref`]) to a catalog key built from the component's kind and data id
//! (`bonus_space.majority_titanium`, `threat.space_pirates` …), carrying the data's own English
//! for an id no catalog knows (a corrected data folder may add one). The data files keep their
//! English names; the catalogs translate.

use super::cards::{CardDef, CardKind};
use super::common::{Requirement, Resource, Reward};
use super::CardId;
use super::GameData;
use crate::text::name_ref;

impl Resource {
    /// "carbon" / "Kohlenstoff", in the reader's language.
    pub fn name(self) -> String {
        name_ref(&format!("resource.{}", self.id()), &[], self.id())
    }
}

/// A data id as English words: `majority_titanium` → "majority titanium".
fn words(id: &str) -> String {
    id.replace('_', " ")
}

impl GameData {
    /// A card's short label such as "3 titanium +Minerva Corp. share": what it is and the company
    /// share it carries (the company's name from the data, never its id; the card's own id is no
    /// name players use, the reference keeps it for tools); a name reference, so every text it
    /// reaches writes it in its reader's language.
    pub fn card_label(&self, id: CardId) -> String {
        let card = self.card(id);
        let what = self.card_kind_name(card);
        let share = match card.share {
            Some(c) => {
                let company = self.company_name(c);
                name_ref(
                    "card.share",
                    &[("company", &company)],
                    &format!(" +{company} share"),
                )
            }
            None => String::new(),
        };
        let id = &card.id;
        name_ref(
            "card.label",
            &[("what", &what), ("share", &share), ("id", id)],
            &format!("{what}{share} [{id}]"),
        )
    }

    /// What a card is, without its share or id: "3 titanium", "Minerva Corp. field scientist".
    pub fn card_kind_name(&self, card: &CardDef) -> String {
        let n = card.value;
        match card.kind {
            CardKind::Resource { resource } => {
                let key = format!("card.{}", resource.id());
                name_ref(&key, &[("n", &n)], &format!("{n} {}", resource.id()))
            }
            CardKind::Energy => name_ref("card.energy", &[("n", &n)], &format!("{n} energy")),
            CardKind::ResearchScientist => name_ref(
                "card.research_scientist",
                &[("n", &n)],
                &format!("research scientist {n} RP"),
            ),
            CardKind::FieldScientist { company: None, .. } => {
                name_ref("card.field_scientist", &[], "field scientist")
            }
            CardKind::FieldScientist {
                company: Some(c), ..
            } => {
                let company = self.company_name(c);
                name_ref(
                    "card.company_field_scientist",
                    &[("company", &company)],
                    &format!("{company} field scientist"),
                )
            }
            CardKind::SingleShare => name_ref("card.single_share", &[], "single share"),
        }
    }

    /// A board bonus space (by index), e.g. "majority titanium".
    pub fn bonus_space_name(&self, index: usize) -> String {
        match self.board.bonus_spaces.get(index) {
            Some(space) => name_ref(&format!("bonus_space.{}", space.id), &[], &words(&space.id)),
            None => String::new(),
        }
    }

    /// A bonus tile by its data id (`field_scientist`, `plus_one_resource` …).
    pub fn tile_name(&self, id: &str) -> String {
        name_ref(&format!("tile.{id}"), &[], &words(id))
    }
}

impl super::threats::ThreatCard {
    /// The threat card's name, e.g. "Space pirates" / "Weltraumpiraten".
    pub fn display_name(&self) -> String {
        name_ref(&format!("threat.{}", self.id), &[], &self.name)
    }

    /// What dealing with the threat asks beyond reaching it, in words from its machine form
    /// ("spend 3 more energy points"; parts joined by "and").
    pub fn requirement_words(&self) -> String {
        self.requirement_parts(|_| true)
            .join(&name_ref("image.and", &[], " and "))
    }

    /// The parts of the requirement that `keep` selects, in words.
    pub fn requirement_parts(
        &self,
        keep: impl Fn(&super::threats::ThreatRequirement) -> bool,
    ) -> Vec<String> {
        use super::threats::ThreatRequirement as R;
        self.requirement
            .iter()
            .flat_map(|r| r.flatten())
            .filter(|r| keep(r))
            .filter_map(|r| match r {
                R::PayCoins { n } => Some(name_ref(
                    "image.threat_need.pay_coins",
                    &[("n", n)],
                    &format!("pay {n} CrypCoin"),
                )),
                R::SpendExtraEnergy { n } => Some(name_ref(
                    "image.threat_need.spend_extra_energy",
                    &[("n", n)],
                    &format!("spend {n} more energy points"),
                )),
                R::DiscardEnergyCardsFromHand { n } => Some(name_ref(
                    "image.threat_need.discard_energy_cards",
                    &[("n", n)],
                    &format!("discard {n} energy cards from your hand"),
                )),
                R::TankValuePassed { value } => Some(name_ref(
                    "image.threat_need.tank_value_passed",
                    &[("value", value)],
                    &format!("your helium-3 marker must have passed {value}"),
                )),
                R::ResearchValuePassed { value } => Some(name_ref(
                    "image.threat_need.research_value_passed",
                    &[("value", value)],
                    &format!("your upload marker must have passed {value}"),
                )),
                R::AllOf { .. } => None,
            })
            .collect()
    }

    /// What happens if the threat is still on the board at the end, in words from its machine
    /// form.
    pub fn consequence_words(&self) -> String {
        use super::threats::ConsequenceEffect as C;
        let effect = &self.consequence.effect;
        let key = format!("image.threat_if.{}", effect.kind());
        match effect {
            C::DevalueMostValuableStation { ignore_coins, .. } => {
                name_ref(&key, &[("n", ignore_coins)], effect.kind())
            }
            C::GameEndsAfterRound { round } => name_ref(&key, &[("round", round)], effect.kind()),
            _ => name_ref(&key, &[], effect.kind()),
        }
    }
}

impl super::campaign::Chapter {
    /// The campaign chapter's name, e.g. "Mining the Moon" / "Auf zum Mond".
    pub fn display_name(&self) -> String {
        name_ref(&format!("chapter.{}", self.id), &[], &self.name)
    }
}

impl super::campaign::Rating {
    /// The final rating's verdict (keyed by the row's lowest SP).
    pub fn display_text(&self) -> String {
        name_ref(&format!("rating.{}", self.min_sp), &[], &self.text)
    }
}

impl super::missions::MissionTask {
    /// The task of mission card `card` as it reads on `side` (the side's own wording where the
    /// card has one, else the common text).
    pub fn display_text(&self, card: u32, side: super::common::BoardSide) -> String {
        let (suffix, variant) = match side {
            super::common::BoardSide::Moon => ("moon", self.moon.as_ref()),
            super::common::BoardSide::Belt => ("belt", self.belt.as_ref()),
        };
        match variant {
            Some(text) => name_ref(
                &format!("mission.{card}.{}.{suffix}", self.column),
                &[],
                text,
            ),
            None => self.common_text(card),
        }
    }

    /// The task's common text, whatever the side.
    pub fn common_text(&self, card: u32) -> String {
        name_ref(&format!("mission.{card}.{}", self.column), &[], &self.text)
    }
}

impl GameData {
    /// A research plan's (or bonus space's) requirement, e.g. "2 carbon", "pay 1 CrypCoin".
    pub fn requirement_name(&self, requirement: &Requirement) -> String {
        let n = |key: &str, n: u32, english: &str| {
            name_ref(
                &format!("requirement.{key}"),
                &[("n", &n)],
                &crate::text::fill(&format!("{{n}} {english}"), "n", &n.to_string()),
            )
        };
        match requirement {
            Requirement::Carbon { min } => n("carbon", *min, "carbon"),
            Requirement::Minerals { min } => n("minerals", *min, "minerals"),
            Requirement::Titanium { min } => n("titanium", *min, "titanium"),
            Requirement::Energy { min } => n("energy", *min, "energy"),
            Requirement::ResearchScientist { min } => n(
                "research_scientist",
                *min,
                "{n|research scientist|research scientists}",
            ),
            Requirement::FieldScientist { min } => n(
                "field_scientist",
                *min,
                "{n|field scientist|field scientists}",
            ),
            Requirement::EitherScientist { min } => {
                n("either_scientist", *min, "{n|scientist|scientists}")
            }
            Requirement::FourOfOneType => name_ref(
                "requirement.four_of_one_type",
                &[],
                "4 units of one resource type",
            ),
            Requirement::ThreeCarbonThreeOfOneType => name_ref(
                "requirement.three_carbon_three_of_one_type",
                &[],
                "3 carbon and 3 units of one other type",
            ),
            Requirement::Pay { n } => {
                name_ref("requirement.pay", &[("n", n)], &format!("pay {n} CrypCoin"))
            }
            Requirement::NotFirstPlayerOnFirstTurnOfRound => name_ref(
                "requirement.not_first_player",
                &[],
                "not the first player's first turn",
            ),
            Requirement::DiscardFromHand { card } => match Resource::parse(card) {
                Some(r) => name_ref(
                    "requirement.discard_resource",
                    &[("resource", &r.name())],
                    &format!("put 1 {} card from your hand on the discard pile", r.id()),
                ),
                None => name_ref(
                    "requirement.discard_any",
                    &[],
                    "put 1 card from your hand on the discard pile",
                ),
            },
        }
    }

    /// A research plan by its printed face (the id on its back is no name players use):
    /// "[1 titanium + 2 energy → +2 on a company track of your choice]".
    pub fn plan_label(&self, plan: super::PlanId) -> String {
        let Some(p) = self.research.plans.get(plan as usize) else {
            return String::new();
        };
        let (requirements, rewards) = self.printed_plan(&p.requirements, &p.reward);
        name_ref(
            "plan.label",
            &[("requirements", &requirements), ("rewards", &rewards)],
            &format!("[{requirements} → {rewards}]"),
        )
    }

    /// A special research plan by its printed round number, cost and value: "special research
    /// plan 2 [pay 2 → worth 5]".
    pub fn special_plan_label(&self, index: usize) -> String {
        let Some(p) = self.research.special_plans.get(index) else {
            return String::new();
        };
        name_ref(
            "plan.special_label",
            &[
                ("round", &p.round),
                ("cost", &p.coin_cost),
                ("value", &p.value),
            ],
            &format!(
                "special research plan {} [pay {} → worth {}]",
                p.round, p.coin_cost, p.value
            ),
        )
    }

    /// The plan printed on starting research token `token`.
    pub fn token_plan_label(&self, token: usize) -> String {
        let Some(t) = self.research.starting_tokens.get(token) else {
            return name_ref("label.token_plan", &[], "the starting token's plan");
        };
        let (requirements, rewards) = self.printed_plan(&t.plan_requirements, &t.plan_reward);
        name_ref(
            "plan.token_label",
            &[("requirements", &requirements), ("rewards", &rewards)],
            &format!("the starting token's plan [{requirements} → {rewards}]"),
        )
    }

    /// A starting research token by what it shows (its id is printed nowhere): the starting
    /// cards it rests and its start bonus, "[1 carbon, 1 minerals, 1 titanium to rest; start
    /// bonus Minerva Corp. track +2]".
    pub fn token_label(&self, token: usize) -> String {
        let Some(t) = self.research.starting_tokens.get(token) else {
            return String::new();
        };
        let rests: Vec<String> = t
            .rest_icons
            .iter()
            .map(|icon| match self.starting_card(0, icon) {
                Some(card) => self.card_kind_name(self.card(card)),
                None => icon.clone(),
            })
            .collect();
        let bonus: Vec<String> = t
            .start_bonus
            .iter()
            .map(|b| match super::Company::parse(&b.track) {
                Some(company) => self.reward_name(&Reward::CompanyTrack { company, n: b.n }),
                None => self.reward_name(&Reward::Tank { n: b.n }),
            })
            .collect();
        let (rests, bonus) = (rests.join(", "), bonus.join(", "));
        name_ref(
            "token.label",
            &[("rests", &rests), ("bonus", &bonus)],
            &format!("[{rests} to rest; start bonus {bonus}]"),
        )
    }

    /// A plan's requirements and rewards in words, each list joined by " + ".
    fn printed_plan(&self, requirements: &[Requirement], rewards: &[Reward]) -> (String, String) {
        let requirements: Vec<String> = requirements
            .iter()
            .map(|r| self.requirement_name(r))
            .collect();
        let rewards: Vec<String> = rewards.iter().map(|r| self.reward_name(r)).collect();
        (requirements.join(" + "), rewards.join(" + "))
    }

    /// A reward of a research plan, bonus space or majority tier, e.g. "tank +2".
    pub fn reward_name(&self, reward: &Reward) -> String {
        match reward {
            Reward::Coins { n } => name_ref("reward.coins", &[("n", n)], &format!("{n} CrypCoin")),
            Reward::ResearchPoints { n } => {
                name_ref("reward.research_points", &[("n", n)], &format!("{n} RP"))
            }
            Reward::Tank { n } => name_ref("reward.tank", &[("n", n)], &format!("tank +{n}")),
            Reward::TrackOfChoice { n } => name_ref(
                "reward.track_of_choice",
                &[("n", n)],
                &format!("+{n} on a company track of your choice"),
            ),
            Reward::CompanyTrack { company, n } => name_ref(
                "reward.company_track",
                &[("company", &self.company_name(*company)), ("n", n)],
                &format!("{} track +{n}", self.company_name(*company)),
            ),
            Reward::RemoveOutposts { n } => name_ref(
                "reward.remove_outposts",
                &[("n", n)],
                &crate::text::fill("remove {n} {n|outpost|outposts}", "n", &n.to_string()),
            ),
            Reward::TitaniumMinusOne => name_ref(
                "reward.titanium_minus_one",
                &[],
                "titanium cards cost 1 less",
            ),
            Reward::TakeFirstPlayerMarker => {
                name_ref("reward.first_player", &[], "take the first player marker")
            }
            Reward::BuyDisplayCard { discount } => name_ref(
                "reward.buy_display_card",
                &[("discount", discount)],
                &format!("buy a display card for CrypCoin (-{discount})"),
            ),
            Reward::CoinsPrintedCostPlus { n } => name_ref(
                "reward.coins_printed_cost_plus",
                &[("n", n)],
                &format!("CrypCoin: printed cost +{n}"),
            ),
            Reward::ReserveBonusTile { tile } => name_ref(
                "reward.reserve_tile",
                &[("tile", &self.tile_name(tile))],
                &format!("reserve the {} tile", words(tile)),
            ),
        }
    }
}

impl super::tracks::TrackBonusEntry {
    /// What the track bonus does in the reader's language, e.g. "Discard 1 card from your hand:
    /// gain its printed cost + 3.".
    pub fn display_text(&self) -> String {
        name_ref(&format!("track_bonus.{}", self.id), &[], &self.text)
    }
}
