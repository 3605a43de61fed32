"""A user's library of generated images, and what becomes of them afterwards.

- gallery.py: the gallery, feedback, deletion, ZIP downloads and sharing to the showcase;
- rerender.py: an image rendered again with the user's placement adjustment, free of charge;
- showcase.py: the public showcase, and what operators do with shared outputs.

The re-render lives here, beside the image it starts from (gallery.owned_task): in
core/generations/ it would make generations and library import each other, which the
import-linter's acyclic-siblings contract forbids (the gallery reads generations' tasks).
"""
