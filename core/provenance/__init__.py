"""Content Credentials (C2PA): every image this product delivers carries a signed manifest that
says it was made by an AI model, from what, by which engine (issue 37).

- chain.py: the signing certificate chain and key: the configured ones (production must have
  them), or a development chain made once in the data folder (untrusted by anyone else).
- manifest.py: what a manifest says (actions, digital source type, ingredients, our own
  assertion with the generation), the XMP field for tools that read only metadata, and the
  summary people and the API see.
- signing.py: signs encoded bytes once, where the output is stored (nothing may re-encode after).
- verify.py: reads an image and says whether it carries our valid credentials and whether its
  pixels changed since.

The C2PA project's own library (`c2pa-python`, the Rust SDK inside the wheel) does the signing and
the validation; this package only decides what to say and how to judge what it reports.
"""
