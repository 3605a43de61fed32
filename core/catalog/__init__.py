"""The catalog of digital models and backgrounds that a generation can use.

- lookup.py: items by id and the pages the pickers show (published items only);
- admin.py: what operators do with items: upload (vetted first), describe, publish, reorder;
- fit.py: which digital models a photo can be swapped to, said before anyone pays.
"""
