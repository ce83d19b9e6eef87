"""The compiler: a checked Script on a Layout → a Timeline of keyframe channels, once.

compiler.py holds `Compiler` and `compile_script`, the one compile. The verbs (viz.model.verbs)
compile through the Compiler's primitives and are handed it as a CompileContext; they never import
this package. Modules here import viz.base, viz.text and the rest of viz.model. This file imports
nothing: import the module that defines a name (viz.model.compile.compiler.compile_script).
"""
