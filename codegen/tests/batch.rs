//! The batch form (`generate_with_batch`): snapshots of the batch items of small models,
//! what gets a batch form (every model, submodels included), that the scalar code before
//! it is unchanged and that every item carries the one lint allowance. Compiling the
//! batch code and its bit-identity with the scalar step are tested in `examples/batch`.

use sit_codegen::{Options, generate, generate_with_batch};

fn program(text: &str) -> sit_middle::ir::Program {
    let out = sit_middle::check_source("m.sit", text);
    assert!(!out.has_errors(), "{}", out.render());
    out.program.expect("checked")
}

/// The batch part: everything after the scalar code.
fn batch_part(p: &sit_middle::ir::Program) -> String {
    let lowered = sit_middle::lower::Lowered::new(p, Default::default()).expect("lowers");
    let scalar = generate(&lowered, &Options::default()).unwrap();
    let both = generate_with_batch(
        &sit_middle::lower::Lowered::new(p, Default::default()).expect("lowers"),
        &Options::default(),
    )
    .unwrap();
    assert!(
        both.starts_with(&scalar),
        "the scalar code comes first, unchanged"
    );
    both[scalar.len()..].to_string()
}

#[test]
fn guards_otherwise_events_and_deriv() {
    let p = program(
        "model M {\n\
         param k = 2;\n\
         param k2 = 2 * k;\n\
         real x = 1;\n\
         real y;\n\
         real v;\n\
         flag q;\n\
         pred high = x > 0.5;\n\
         event up = x > k2;\n\
         when high & !q { y = x * k2; when x < 3 { v = 1; } }\n\
         when x > 0.9 => q;\n\
         when x < 0.1 => !q;\n\
         y = 0 otherwise;\n\
         v = deriv(x) when up;\n\
         x = integral(-k * x + dt);\n\
         }\n",
    );
    insta::assert_snapshot!(batch_part(&p));
}

#[test]
fn models_with_submodels_have_a_batch_form() {
    let p = program(
        "model Leaf { param g = 1; input real u; output real y; y = integral(g * u); }\n\
         model Top {\n\
         param k = 2;\n\
         sub a: Leaf(g = k, u = 1);\n\
         sub b: Leaf(u = a.y) off;\n\
         output real z;\n\
         z = a.y + b.y;\n\
         when z > 3 => b.on, reset(a);\n\
         when z > 5 => !b.on;\n\
         }\n",
    );
    let batch = batch_part(&p);
    assert!(
        batch.contains("pub struct TopBatch<const N: usize>"),
        "{batch}"
    );
    assert!(batch.contains("pub a: LeafBatch<N>"), "{batch}");
    insta::assert_snapshot!(batch);
    let only_top = Options {
        model: Some("Top".into()),
        ..Options::default()
    };
    assert!(
        generate_with_batch(
            &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
            &only_top
        )
        .unwrap()
        .contains("LeafBatch")
    );
    let unknown = Options {
        model: Some("Nope".into()),
        ..Options::default()
    };
    assert!(
        generate_with_batch(
            &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
            &unknown
        )
        .is_err()
    );
}

#[test]
fn batch_names_do_not_collide_with_models() {
    let p = program("model A { real x; }\nmodel ABatch { real y; }\n");
    let batch = batch_part(&p);
    assert!(
        batch.contains("pub struct ABatch_<const N: usize>"),
        "{batch}"
    );
    assert!(
        batch.contains("pub struct ABatchBatch<const N: usize>"),
        "{batch}"
    );
}

/// The warning policy of `docs/codegen.md`: every generated item (structs, `impl` blocks,
/// scalar and batch) carries the one allowance `clippy::all, clippy::pedantic`.
#[test]
fn every_item_carries_the_one_allowance() {
    let p = program(
        "model Leaf { input real u; output real y; y = integral(u); }\n\
         model Top { sub a: Leaf(u = 1); output real z; flag q;\n\
         z = a.y when !(z < 1); when z > 2 => q; }\n",
    );
    let code = generate_with_batch(
        &sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers"),
        &Options::default(),
    )
    .unwrap();
    let file = syn::parse_file(&code).expect("generated code parses");
    let mut items = 0;
    for item in &file.items {
        let attrs = match item {
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Impl(i) => &i.attrs,
            other => panic!("unexpected item {}", quote::quote!(#other)),
        };
        items += 1;
        let allowed = attrs.iter().any(|a| {
            let text = quote::quote!(#a).to_string();
            text.contains("allow")
                && text.contains("clippy :: all")
                && text.contains("clippy :: pedantic")
        });
        assert!(allowed, "{}", quote::quote!(#item));
    }
    // Per model: struct, inherent impl, Default, Model; batch: struct, impl, Default.
    assert_eq!(items, 2 * 7);
}

/// `Options::count_table_reach`: without it nothing counts (the scalar and batch code
/// are those of the snapshots above); with it, each lookup notes its arguments in the
/// model's (the lane's) `TableReach` first, the scalar step reads the pred inlined, a
/// guarded rule of the batch form runs under a branch, and `reset` forgets the counts.
/// A pred whose expression starts with a table read is the tail of its accessor in
/// parentheses (a block there would end the statement).
#[test]
fn counting_table_reads_is_opt_in() {
    let p = program(
        "model M {\n\
         table h(x) = [0, 1] -> [0, 2] clamp;\n\
         real x = -1;\n\
         output real y;\n\
         pred p = h(x) > 1;\n\
         y = h(x) when p;\n\
         y = 0 otherwise;\n\
         x = integral(1);\n\
         }\n",
    );
    let lowered = sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers");
    let plain = generate_with_batch(&lowered, &Options::default()).unwrap();
    assert!(!plain.contains("table_reach") && !plain.contains("note1"));
    assert!(
        plain.contains("pub fn p(&self) -> bool {\n        ({"),
        "{plain}"
    );
    let opts = Options {
        count_table_reach: true,
        ..Options::default()
    };
    insta::assert_snapshot!(generate_with_batch(&lowered, &opts).unwrap());
}
