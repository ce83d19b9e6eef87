"""The compiler: a checked Script on a Layout → a Timeline of keyframe channels, once.

compiler.py holds `Compiler` and `compile_script`, the one compile; the rest are the parts the
Compiler is made of, one mixin each. A part calls only the parts it inherits from, so the chain
of bases is the order of dependence:

    keyframes.py  _Keyframes: the state as the rite goes and the keyframe primitives (_Buffer)
    motion.py     _Motion(_Keyframes): turns, gestures, walks (legs.py: the planned legs)
    props.py      _Props(_Motion): things set out, taking up, the reach and holder checks
    shooting.py   _Shooting(_Keyframes): the beat, hits called and laid, the count, the rounds
    checks.py     _Checks(_Keyframes): expect, speed, two in one spot, jumps between stages
    dress.py      _Dress(_Keyframes): 袒 決 遂 and the 扑 in the belt per person, 張/弛 per bow
    compiler.py   Compiler(_Dress, _Props, _Shooting, _Checks): stages, setups, steps → Timeline

The verbs (viz.model.verbs) compile through the Compiler's primitives and are handed it as a
CompileContext; they never import this package. Modules here import viz.base, viz.text and the
rest of viz.model; nothing below viz.model imports them. This file imports nothing: import the
module that defines a name (viz.model.compile.compiler.compile_script).
"""
