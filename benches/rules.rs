//! Throughput of the rules engine: classifications, 5-player Wurfrunden and whole random Runden
//! per second. Run: `cargo bench --bench rules -- --warm-up-time 1 --measurement-time 3`.

#[path = "../tests/common/rules_driver.rs"]
mod driver;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::SeedableRng;
use schockerliga::rules::{classify, evaluate_throws, Dice, RuleSet, ThrowInput};

fn classifications(c: &mut Criterion) {
    let rules = RuleSet::schockerliga();
    let inputs: Vec<(Dice, bool)> = Dice::all_rolls()
        .filter_map(Dice::new)
        .flat_map(|d| [(d, true), (d, false)])
        .collect();
    let mut g = c.benchmark_group("rules");
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.bench_function("classify (432 results)", |b| {
        b.iter(|| {
            for &(d, hand) in &inputs {
                black_box(classify(black_box(d), hand, &rules));
            }
        })
    });
    g.finish();
}

fn wurfrunden(c: &mut Criterion) {
    let rules = RuleSet::schockerliga();
    let mut rng = StdRng::seed_from_u64(1);
    let players = ["Anna", "Bernd", "Carla", "Dirk", "Emil"];
    let rounds: Vec<Vec<ThrowInput>> = (0..1000)
        .map(|_| {
            let mut allowed = 3;
            players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let (seq, _, _) = driver::play_turn(&mut rng, allowed, &rules);
                    if i == 0 {
                        allowed = u8::try_from(seq.len()).unwrap_or(3);
                    }
                    ThrowInput::from_sequence(p, seq)
                })
                .collect()
        })
        .collect();
    let mut g = c.benchmark_group("rules");
    g.throughput(Throughput::Elements(rounds.len() as u64));
    g.bench_function("5-player Wurfrunden from sequences (1000)", |b| {
        b.iter(|| {
            for r in &rounds {
                black_box(evaluate_throws(black_box(r), &rules, false, false).is_ok());
            }
        })
    });
    g.finish();
}

fn runden(c: &mut Criterion) {
    let rules = RuleSet::schockerliga();
    let mut rng = StdRng::seed_from_u64(2);
    let players = ["Anna", "Bernd", "Carla", "Dirk"];
    let mut g = c.benchmark_group("rules");
    g.throughput(Throughput::Elements(1));
    g.bench_function("random 4-player Runde (play + RundeState)", |b| {
        b.iter(|| black_box(driver::play_runde(&mut rng, &players, &rules).1.len()))
    });
    g.finish();
}

criterion_group!(benches, classifications, wurfrunden, runden);
criterion_main!(benches);
