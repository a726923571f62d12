//! The large puzzle models are beyond the brute-force oracle: here the interpreter checks a known solution
//! of each (it must satisfy PROPERTIES) and a slightly wrong one (it must not). The search itself is tested
//! with the solvers of later stages.

mod common;

use common::{load, properties_hold};

fn owned(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(n, v)| (*n, v.to_string())).collect()
}

#[test]
fn send_more_money_accepts_9567_1085_10652_only() {
    let model = load("SendMoreMoney.mch");
    let digits = |e: &str| {
        owned(&[
            ("S", "9"),
            ("E", e),
            ("N", "6"),
            ("D", "7"),
            ("M", "1"),
            ("O", "0"),
            ("R", "8"),
            ("Y", "2"),
        ])
    };
    assert!(properties_hold(&model, &digits("5")));
    assert!(!properties_hold(&model, &digits("4")));
}

const QUEENS20: &str = "{1|->1,2|->3,3|->5,4|->2,5|->4,6|->13,7|->15,8|->12,9|->18,10|->20,11|->17,12|->9,\
                        13|->16,14|->19,15|->8,16|->10,17|->7,18|->14,19|->6,20|->11}";

#[test]
fn twenty_queens_accepts_a_placement_and_rejects_an_attack() {
    let model = load("NQueens.mch");
    assert!(properties_hold(
        &model,
        &[("n", "20".into()), ("queens", QUEENS20.into())]
    ));
    // Swapping the rows of columns 1 and 2 puts the queens of columns 2 and 3 on a diagonal.
    let attacked = QUEENS20.replace("1|->1,2|->3", "1|->3,2|->1");
    assert!(!properties_hold(
        &model,
        &[("n", "20".into()), ("queens", attacked)]
    ));
}

#[test]
fn graph_isomorphism_witness_permutation_is_an_isomorphism() {
    let model = load("GraphIsomorphism.mch");
    let iso = |p: &str| {
        common::value_of(
            &model,
            &format!(
                "bool(!(n1, n2).(n1 : {{a,b,c,d,e}} & n2 : {{a,b,c,d,e}} => \
                 (n1 |-> n2 : G1 \\/ G1~ <=> {p}(n1) |-> {p}(n2) : G2 \\/ G2~)))"
            ),
        )
    };
    assert_eq!(
        iso("{a|->x, b|->z, c|->v, d|->u, e|->y}").to_string(),
        "TRUE"
    );
    assert_eq!(
        iso("{a|->y, b|->z, c|->v, d|->u, e|->x}").to_string(),
        "FALSE"
    );
}

#[test]
fn crew_allocation_accepts_a_rota_and_rejects_three_flights_in_a_row() {
    let model = load("CrewAllocation.mch");
    let day = "carol, david, tom";
    let night = "janet, jeremy, tracy";
    let rota = |crews: &[&str]| -> String {
        let mut pairs = vec![];
        for (f, crew) in crews.iter().enumerate() {
            for p in crew.split(", ") {
                pairs.push(format!("{}|->{}", f + 1, p));
            }
        }
        format!("{{{}}}", pairs.join(","))
    };
    let good: Vec<&str> = (0..20)
        .map(|f| if f % 3 == 2 { night } else { day })
        .collect();
    let fixed = [
        (
            "male",
            "{tom|->TRUE, david|->TRUE, jeremy|->TRUE, carol|->FALSE, janet|->FALSE, tracy|->FALSE}",
        ),
        (
            "speaks",
            "{tom|->german, david|->french, jeremy|->german, carol|->spanish, janet|->french, tracy|->spanish}",
        ),
    ];
    let mut assignment = owned(&fixed);
    assignment.push(("assign", rota(&good)));
    assert!(properties_hold(&model, &assignment));
    let mut tired = good.clone();
    tired[2] = day; // flights 1, 2 and 3 with the same crew
    let mut assignment = owned(&fixed);
    assignment.push(("assign", rota(&tired)));
    assert!(!properties_hold(&model, &assignment));
}

#[test]
fn graph_colouring_planted_colourings_are_proper() {
    let model = load("GraphColouring.mch");
    let planted = common::value_of(&model, "PLANTED_COLOURING");
    let assignment = |colour: String| {
        vec![
            ("Vertexes", "1..40".to_string()),
            ("Edges", "EDGES".to_string()),
            ("maxnocol", "5".to_string()),
            ("colour", colour),
        ]
    };
    assert!(properties_hold(&model, &assignment(planted.to_string())));
    // Giving every vertex colour 1 violates every edge.
    assert!(!properties_hold(
        &model,
        &assignment("(1..40) * {1}".to_string())
    ));

    let model = load("GraphColouringEnum.mch");
    let ok = vec![
        ("Edges", "EDGES".to_string()),
        ("colour", "PLANTED_COLOURING".to_string()),
    ];
    assert!(properties_hold(&model, &ok));
    let bad = vec![
        ("Edges", "EDGES".to_string()),
        ("colour", "Vertexes * {red}".to_string()),
    ];
    assert!(!properties_hold(&model, &bad));
}

#[test]
fn sat_colouring_planted_model_satisfies_every_clause() {
    let model = load("SATColouring.mch");
    let cnf =
        std::fs::read_to_string(common::model_path("SATColouring.cnf")).expect("SATColouring.cnf");
    let planted: Vec<i64> = cnf
        .lines()
        .find_map(|l| l.strip_prefix("c planted "))
        .expect("planted line")
        .split_whitespace()
        .map(|l| l.parse().expect("literal"))
        .collect();
    assert_eq!(planted.len(), 600);
    let assignment = |flip: Option<usize>| -> Vec<(&'static str, String)> {
        planted
            .iter()
            .enumerate()
            .map(|(i, lit)| {
                let name: &'static str = Box::leak(format!("x{}", lit.abs()).into_boxed_str());
                let truth = (*lit > 0) != (flip == Some(i));
                (name, if truth { "TRUE" } else { "FALSE" }.to_string())
            })
            .collect()
    };
    assert!(properties_hold(&model, &assignment(None)));
    // Flipping the first variable leaves vertex 0 without a colour (or with two).
    assert!(!properties_hold(&model, &assignment(Some(0))));
}
