"""The seed text segmented: Corpus (plain stream, sections, runs, clauses), find(), normalize()."""
from viz.text.corpus import Clause, Corpus, Run, Section, load_corpus
from viz.text.variants import normalize

__all__ = ["Clause", "Corpus", "Run", "Section", "load_corpus", "normalize"]
