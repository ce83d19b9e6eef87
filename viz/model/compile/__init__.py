"""The compiler: a checked Script on a Layout → a Timeline of keyframe channels, once.

The compile's state has four owners, plain objects that alone write their own state (a test,
tests/test_ownership.py, holds this); a context holds them, and the verbs are handed it:

    world.py      World: where each person stands and faces, seated, present, labelled; each
                  prop's holder and place, the arrows loosed; spots marked; things set out
    keyframes.py  Track: the keyframe rows per channel, the step buffer, the clock, the channels
    shooting.py   Range: the beat, hits called and laid, the count, the rounds
    dress.py      Wardrobe: 袒 決 遂 and the 扑 in the belt per person, 張/弛 per bow; who
                  wears each worn thing (the "wear" channel)
    legs.py       Legs: the walks' planned legs, kept per layout and on disk
    context.py    Ctx: the script, layout and the owners above; the primitives (teleport,
                  set_prop …) that write a row on the track and tell the world
    motion.py     functions of Ctx: turns, gestures, walks
    props.py      functions of Ctx: things set out, taking up, the reach and holder checks
    costume.py    functions of Ctx: don and doff (worn things put on and taken off)
    checks.py     functions: expect, speed, two in one spot, underfoot, jumps between stages
    compiler.py   Handed(Ctx), what the verbs are handed (Ctx with motion's and props'
                  functions as methods); Compiler and compile_script: stages, setups, steps →
                  Timeline

The verbs (viz.model.verbs) compile through the context, typed as a CompileContext; they never
import this package. Modules here import viz.base, viz.text and the rest of viz.model; nothing
below viz.model imports them. This file imports nothing: import the module that defines a name
(viz.model.compile.compiler.compile_script).
"""
