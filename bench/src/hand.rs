//! The benchmarked models written by hand: the same schemes as the `.sit` files.
//!
//! Each struct is what a careful programmer would write for the model without Sit:
//! plain `f64`/`bool` fields, the rules as straight-line code, the same arithmetic
//! in the same order and the same `sit_runtime` procedures (so `integral` is
//! `y + x * dt` and `sin` is `libm::sin`, exactly as in the generated code). Named
//! conditions become local `bool`s or `if`/`else` chains where that gives the same
//! result; derived params are computed once at reset. `tests/hand_vs_generated.rs`
//! checks that every state matches the generated code's to the bit.

use sit_runtime::math::{abs, asin, max, sign, sin};
use sit_runtime::{Clock, integral};

/// `examples/models/pendulum.sit`: semi-implicit Euler on the angle and its speed.
#[derive(Debug, Clone)]
#[allow(non_snake_case)]
pub struct Pendulum {
    /// Thread length, m.
    pub L: f64,
    /// Gravity, m/s².
    pub g: f64,
    /// Initial angle, rad.
    pub angle0: f64,
    /// Angle, rad.
    pub angle: f64,
    /// Angular velocity, rad/s.
    pub omega: f64,
    /// sin(angle).
    pub s: f64,
    /// Tangential acceleration, m/s².
    pub a: f64,
    /// Angular acceleration, rad/s².
    pub eps: f64,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Pendulum {
    /// The model with the file's defaults, at its initial state.
    pub fn new() -> Pendulum {
        Pendulum {
            L: 2.0,
            g: 9.81,
            angle0: 1.0,
            angle: 1.0,
            omega: 0.0,
            s: 0.0,
            a: 0.0,
            eps: 0.0,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        self.s = sin(self.angle);
        self.a = -self.g * self.s;
        self.eps = self.a / self.L;
        self.omega = integral(self.omega, self.eps, dt);
        self.angle = integral(self.angle, self.omega, dt);
        self.time = self.clock.advance(dt);
    }
}

impl Default for Pendulum {
    fn default() -> Pendulum {
        Pendulum::new()
    }
}

/// `examples/models/van_der_pol.sit`: forward Euler, both derivatives from the old state.
#[derive(Debug, Clone)]
pub struct VanDerPol {
    /// Nonlinear damping.
    pub mu: f64,
    /// Position.
    pub x0: f64,
    /// Velocity.
    pub x1: f64,
    /// x0'.
    pub der_x0: f64,
    /// x1'.
    pub der_x1: f64,
    /// Time.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl VanDerPol {
    /// The model with the file's defaults, at its initial state.
    pub fn new() -> VanDerPol {
        VanDerPol {
            mu: 1.0,
            x0: 2.0,
            x1: 0.0,
            der_x0: 0.0,
            der_x1: 0.0,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        self.der_x0 = self.x1;
        self.der_x1 = self.mu * ((1.0 - self.x0 * self.x0) * self.x1) - self.x0;
        self.x0 = integral(self.x0, self.der_x0, dt);
        self.x1 = integral(self.x1, self.der_x1, dt);
        self.time = self.clock.advance(dt);
    }
}

impl Default for VanDerPol {
    fn default() -> VanDerPol {
        VanDerPol::new()
    }
}

/// `examples/models/thermostat.sit`: a room under an on/off thermostat with hysteresis.
#[derive(Debug, Clone)]
#[allow(non_snake_case)]
pub struct Thermostat {
    /// Heat capacity, J/K.
    pub C: f64,
    /// Heat loss coefficient, W/K.
    pub k: f64,
    /// Heater power, W.
    pub P_heater: f64,
    /// Outside temperature, °C.
    pub T_out: f64,
    /// Switch-on temperature, °C.
    pub T_low: f64,
    /// Switch-off temperature, °C.
    pub T_high: f64,
    /// Room temperature, °C.
    pub T: f64,
    /// Heat flow from the heater, W.
    pub Q: f64,
    /// Rate of change of T, K/s.
    pub dT: f64,
    /// The heater is on.
    pub heating: bool,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Thermostat {
    /// The model with the file's defaults, at its initial state.
    pub fn new() -> Thermostat {
        Thermostat {
            C: 2.0e6,
            k: 150.0,
            P_heater: 6000.0,
            T_out: 5.0,
            T_low: 19.5,
            T_high: 20.5,
            T: 12.0,
            Q: 0.0,
            dT: 0.0,
            heating: true,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        if self.T >= self.T_high {
            self.heating = false;
        }
        if self.T <= self.T_low {
            self.heating = true;
        }
        self.Q = if self.heating { self.P_heater } else { 0.0 };
        self.dT = (self.Q - self.k * (self.T - self.T_out)) / self.C;
        self.T = integral(self.T, self.dT, dt);
        self.time = self.clock.advance(dt);
    }
}

impl Default for Thermostat {
    fn default() -> Thermostat {
        Thermostat::new()
    }
}

/// `examples/models/hoop.sit`: an elastic hoop bouncing on a plane.
#[derive(Debug, Clone)]
#[allow(non_snake_case)]
pub struct Hoop {
    /// Mass, g.
    pub m: f64,
    /// Radius, cm.
    pub R: f64,
    /// Gravity, cm/s².
    pub g: f64,
    /// Reaction coefficient while compressed, g/s².
    pub k_press: f64,
    /// Reaction coefficient while recovering, g/s².
    pub k_release: f64,
    /// Height of the centre, cm.
    pub h: f64,
    /// Vertical speed, cm/s.
    pub Vy: f64,
    /// Weight.
    pub P: f64,
    /// Reaction of the plane.
    pub Fy: f64,
    /// Net force.
    pub F: f64,
    /// Acceleration.
    pub Ay: f64,
    /// Deformation, cm.
    pub defl: f64,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Hoop {
    /// The model with the file's defaults, at its initial state.
    pub fn new() -> Hoop {
        Hoop {
            m: 1.0,
            R: 30.0,
            g: 981.0,
            k_press: 60000.0,
            k_release: 45000.0,
            h: 400.0,
            Vy: 0.0,
            P: 0.0,
            Fy: 0.0,
            F: 0.0,
            Ay: 0.0,
            defl: 0.0,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        let contact = self.h < self.R;
        let falling = self.Vy < 0.0;
        self.P = self.m * self.g;
        self.Fy = if contact && falling {
            self.k_press * self.defl
        } else if contact {
            self.k_release * self.defl
        } else {
            0.0
        };
        self.F = self.Fy - self.P;
        self.Ay = self.F / self.m;
        self.Vy = integral(self.Vy, self.Ay, dt);
        self.h = integral(self.h, self.Vy, dt);
        self.defl = if self.h < self.R {
            self.R - self.h
        } else {
            0.0
        };
        self.time = self.clock.advance(dt);
    }
}

impl Default for Hoop {
    fn default() -> Hoop {
        Hoop::new()
    }
}

/// `examples/models/complex/roll.sit`: a roll on a tiltable plane.
#[derive(Debug, Clone)]
pub struct Roll {
    /// Start position, m.
    pub x0: f64,
    /// Gravity, m/s².
    pub g: f64,
    /// J/(m·r²).
    pub inertia: f64,
    /// Tilt of the plane, rad.
    pub angle: f64,
    /// Brake.
    pub hold: bool,
    /// Position, m.
    pub x: f64,
    /// Speed, m/s.
    pub v: f64,
    /// Acceleration, m/s².
    pub a: f64,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Roll {
    /// A roll starting at `x0`, at rest.
    pub fn new(x0: f64) -> Roll {
        Roll {
            x0,
            g: 9.81,
            inertia: 0.5,
            angle: 0.0,
            hold: false,
            x: x0,
            v: 0.0,
            a: 0.0,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        self.a = self.g * sin(self.angle) / (1.0 + self.inertia);
        self.v = if self.hold {
            0.0
        } else {
            integral(self.v, self.a, dt)
        };
        self.x = integral(self.x, self.v, dt);
        self.time = self.clock.advance(dt);
    }
}

/// `examples/models/complex/controller.sit`: a bang-bang position controller.
#[derive(Debug, Clone)]
pub struct Controller {
    /// Tilt magnitude, rad.
    pub tilt: f64,
    /// Start of the roll, m.
    pub start: f64,
    /// Target, m.
    pub target: f64,
    /// The roll's position, m.
    pub x: f64,
    /// The roll's speed, m/s.
    pub v: f64,
    /// Commanded tilt, rad.
    pub angle: f64,
    /// Arrived and stopped.
    pub done: bool,
    /// Braking phase.
    pub braking: bool,
    /// Direction of travel, ±1.
    pub dir: f64,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Controller {
    /// A controller for a roll starting at `start`, tilting by `tilt`.
    pub fn new(start: f64, tilt: f64) -> Controller {
        Controller {
            tilt,
            start,
            target: 0.0,
            x: 0.0,
            v: 0.0,
            angle: 0.0,
            done: false,
            braking: false,
            dir: 0.0,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        self.dir = sign(self.target - self.start);
        let past_middle = self.dir * (self.x - (self.start + self.target) / 2.0) >= 0.0;
        if past_middle && !self.done {
            self.braking = true;
        }
        if self.braking && self.dir * self.v <= 0.0 {
            self.done = true;
            self.braking = false;
        }
        self.angle = if self.braking {
            -self.dir * self.tilt
        } else if !self.done {
            self.dir * self.tilt
        } else {
            0.0
        };
        self.time = self.clock.advance(dt);
    }
}

/// `examples/models/complex/positioning.sit`: a roll and its controller.
#[derive(Debug, Clone)]
pub struct Positioning {
    /// Start, m.
    pub start: f64,
    /// Tilt used by the controller, rad.
    pub tilt: f64,
    /// Target, m.
    pub target: f64,
    /// Position, m.
    pub x: f64,
    /// Speed, m/s.
    pub v: f64,
    /// Stands still at the target.
    pub arrived: bool,
    /// Time of arrival, s (-1 before).
    pub t_arrival: f64,
    /// The roll.
    pub roll: Roll,
    /// The roll is stepped.
    pub roll_on: bool,
    /// The controller.
    pub ctl: Controller,
    /// The controller is stepped.
    pub ctl_on: bool,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Positioning {
    /// A positioning system from `start` with `tilt`, towards `target`.
    pub fn new(start: f64, tilt: f64, target: f64) -> Positioning {
        Positioning {
            start,
            tilt,
            target,
            x: start,
            v: 0.0,
            arrived: false,
            t_arrival: -1.0,
            roll: Roll::new(start),
            roll_on: true,
            ctl: Controller::new(start, tilt),
            ctl_on: true,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        if self.roll_on {
            self.roll.angle = self.ctl.angle;
            self.roll.hold = self.ctl.done;
            self.roll.step(dt);
        }
        if self.ctl_on {
            self.ctl.target = self.target;
            self.ctl.x = self.roll.x;
            self.ctl.v = self.roll.v;
            self.ctl.step(dt);
        }
        self.x = self.roll.x;
        self.v = self.roll.v;
        if self.ctl.done && self.roll.v == 0.0 {
            self.arrived = true;
        }
        if self.arrived && self.t_arrival < 0.0 {
            self.t_arrival = self.time + dt;
        }
        self.time = self.clock.advance(dt);
    }
}

/// `examples/models/complex/coordinator.sit`: two positioning systems arriving together.
#[derive(Debug, Clone)]
pub struct Coordinator {
    /// Start of roll 1, m.
    pub start1: f64,
    /// Start of roll 2, m.
    pub start2: f64,
    /// Common target, m.
    pub target: f64,
    /// Largest allowed tilt, rad.
    pub tilt_max: f64,
    /// Position of roll 1, m.
    pub x1: f64,
    /// Position of roll 2, m.
    pub x2: f64,
    /// Both rolls have arrived.
    pub done: bool,
    /// First positioning system.
    pub p1: Positioning,
    /// `p1` is stepped.
    pub p1_on: bool,
    /// Second positioning system.
    pub p2: Positioning,
    /// `p2` is stepped.
    pub p2_on: bool,
    /// Time, s.
    pub time: f64,
    /// Computes the time: `n·dt` after `n` equal steps, as the generated code does.
    pub clock: Clock,
}

impl Coordinator {
    /// The model with the file's defaults, at its initial state.
    pub fn new() -> Coordinator {
        let (start1, start2, target, tilt_max) = (0.0, 3.0, 5.0, 0.2);
        let d1 = abs(target - start1);
        let d2 = abs(target - start2);
        let tilt1 = asin(sin(tilt_max) * d1 / max(d1, d2));
        let tilt2 = asin(sin(tilt_max) * d2 / max(d1, d2));
        Coordinator {
            start1,
            start2,
            target,
            tilt_max,
            x1: start1,
            x2: start2,
            done: false,
            p1: Positioning::new(start1, tilt1, target),
            p1_on: true,
            p2: Positioning::new(start2, tilt2, target),
            p2_on: true,
            time: 0.0,
            clock: Clock::new(),
        }
    }

    /// One step of `dt`.
    pub fn step(&mut self, dt: f64) {
        if self.p1_on {
            self.p1.target = self.target;
            self.p1.step(dt);
        }
        if self.p2_on {
            self.p2.target = self.target;
            self.p2.step(dt);
        }
        self.x1 = self.p1.x;
        self.x2 = self.p2.x;
        if self.p1.arrived {
            self.p1_on = false;
        }
        if self.p2.arrived {
            self.p2_on = false;
        }
        if self.p1.arrived && self.p2.arrived {
            self.done = true;
        }
        self.time = self.clock.advance(dt);
    }
}

impl Default for Coordinator {
    fn default() -> Coordinator {
        Coordinator::new()
    }
}
