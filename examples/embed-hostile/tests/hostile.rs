//! The generated code of the hostile models runs like the interpreter, to the bit (its
//! batch forms like the scalar code), and keeps the `.sit` names in its variable table.

use embed_hostile::{collisions, docs, keywords, modes};
use sit_runtime::Model;

/// Steps the generated model and the interpreted one side by side and compares every
/// variable bit for bit (NaN compared as NaN).
fn same_as_interpreter(generated: &mut dyn Model, file: &str, model: &str) {
    let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut interp = sit_host::load_file(&path, Some(model))
        .map(|l| l.instance)
        .unwrap();
    assert_eq!(generated.var_count(), interp.var_count(), "{model}");
    for i in 0..interp.var_count() {
        assert_eq!(
            generated.var_info(i),
            interp.var_info(i),
            "{model} variable {i}"
        );
    }
    for step in 0..200 {
        let dt = if step % 3 == 0 { 0.01 } else { 0.02 };
        generated.step(dt);
        interp.step(dt);
        for i in 0..interp.var_count() {
            let (g, r) = (generated.get_at(i).unwrap(), interp.get_at(i).unwrap());
            assert!(
                g.to_bits() == r.to_bits() || (g.is_nan() && r.is_nan()),
                "{model}: `{}` is {g} generated, {r} interpreted, at step {step}",
                interp.var_info(i).unwrap().name
            );
        }
    }
}

#[test]
fn keywords_compile_and_run_like_the_interpreter() {
    let mut m = keywords::r#type::new();
    m.r#fn = 3.0;
    m.self_ = 0.5;
    m.reset();
    m.step(0.1);
    assert_eq!(m.crate_, 3.0 * 1.0);
    assert_eq!(m.get("Self"), Some(1.0));
    assert_eq!(m.get("crate"), Some(3.0));
    assert!(m.r#impl());
    assert!(m.r#loop);
    same_as_interpreter(&mut keywords::r#type::new(), "keywords.sit", "type");
}

#[test]
fn names_of_generated_items_and_crates() {
    let mut m = collisions::f64_::new();
    assert_eq!(m.get("new"), Some(1.0));
    assert_eq!(m.get("VARIABLES"), Some(0.0));
    m.set("get", 5.0).unwrap();
    m.set("set", 2.0).unwrap();
    m.step(0.5);
    assert_eq!(m.get("Self.core"), Some(3.0));
    assert_eq!(m.Self_.core, 3.0);
    assert_eq!(m.core.core, 1.0 + 2.0 + 3.0);
    assert_eq!(collisions::f64_::VARIABLES[0].name, "new");
    same_as_interpreter(&mut collisions::f64_::new(), "collisions.sit", "f64");
    let mut model = collisions::Model::new();
    assert_eq!((model.Model, model.f64, model.Default), (1.0, 2.0, 3.0));
    model.step(0.25);
    assert_eq!(model.Model, 1.0 + 2.0 * 0.25);
}

#[test]
fn doc_comments_literals_and_cyrillic_names() {
    let m = docs::Docs::new();
    assert_eq!(m.k, 1e-320);
    assert!(
        m.k > 0.0 && !m.k.is_normal(),
        "1e-320 is kept as a subnormal"
    );
    assert_eq!(m.x.to_bits(), (-0.0f64).to_bits(), "-0 is negative zero");
    assert_eq!(m.y, f64::MAX);
    assert_eq!(m.z, 5e-324);
    assert_eq!(m.w, std::f64::consts::PI);
    assert_eq!(m.v, 1e-303);
    same_as_interpreter(&mut docs::Docs::new(), "docs.sit", "Docs");
    let mut p = docs::Маятник::new();
    p.set("длина", 2.0).unwrap();
    p.step(0.01);
    assert!(p.скорость < 0.0);
    same_as_interpreter(&mut docs::Маятник::new(), "docs.sit", "Маятник");
}

/// Mode enums get unique CamelCase names (`LightLight_`: `LightLight` is a model),
/// variants unique within the enum (`Self_`, `Self__`; `AB`, `AB_`), and the models
/// run like the interpreter, batch lanes like the scalar model.
#[test]
fn modes_with_hostile_names() {
    let mut m = modes::Light::new();
    assert_eq!(m.light, modes::LightLight_::Self_);
    assert_eq!(m.r#type, modes::LightType::ящик);
    assert_eq!(modes::LightLight_::Self__.name(), "Self");
    assert_eq!(modes::LightLight_::AB_.index(), 3);
    for _ in 0..4 {
        m.step(0.25);
    }
    // self -> Self at t = 0.75 (t > 0.5 after the integral), Self -> a_b at t = 1.
    assert_eq!(m.light, modes::LightLight_::AB);
    same_as_interpreter(&mut modes::Light::new(), "modes.sit", "Light");
    // `LightBatch` is the enum of the mode `batch`: the batch form is `LightBatch_`.
    assert_eq!(modes::Light::new().batch, modes::LightBatch::On);
    let mut batch = modes::LightBatch_::<2>::new();
    let mut scalar = modes::Light::new();
    for _ in 0..100 {
        batch.step(0.05);
        scalar.step(0.05);
    }
    assert_eq!(batch.lane(1).unwrap().light, scalar.light);
    assert_eq!(batch.lane(0).unwrap().r#type, scalar.r#type);
}

/// The batch forms of the hostile models (`typeBatch`, `f64_Batch`, `МаятникBatch`, ...)
/// compile warning-free with the crate, and a lane steps as the scalar model does.
#[test]
fn batch_forms_step_each_lane_as_the_scalar_model() {
    let mut scalar = keywords::r#type::new();
    scalar.r#fn = 2.5;
    let mut batch = keywords::typeBatch::<3>::new();
    assert!(batch.set_lane(1, &scalar));
    for step in 0..200 {
        let dt = if step % 3 == 0 { 0.01 } else { 0.02 };
        scalar.step(dt);
        batch.step(dt);
    }
    let lane = batch.lane(1).unwrap();
    for i in 0..scalar.var_count() {
        let (a, b) = (scalar.get_at(i).unwrap(), lane.get_at(i).unwrap());
        assert!(
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            "variable {i}"
        );
    }
    assert_eq!(batch.times()[1].to_bits(), scalar.time().to_bits());
}
