"""The seed text segmented: Corpus (plain stream, sections, runs, clauses), find(), normalize().

The modules, one a line:
    corpus    the corpus read: sections, runs of 經 注 記, clauses and their punctuation, find
    names     one way to name a stage or a section for every command (number, name, beginning)
    variants  variant characters folded (賓 = 賔), so a search finds either
"""
from viz.text.corpus import Clause, Corpus, Run, Section, load_corpus
from viz.text.variants import normalize

__all__ = ["Clause", "Corpus", "Run", "Section", "load_corpus", "normalize"]
