"""BibTeX of the papers nash-metric implements, kept in one place.

The evaluate module (``metrics/nash/nash.py``), the dataset cards and the dataset builders import these
strings, so a correction is made once. The NASH and EmbedNum-1K entries were checked against the papers'
ACL Anthology and arXiv pages; the NQuAD and BERTScore entries are the ones the project already carried.
"""

from __future__ import annotations

# ACL Anthology 2026.findings-acl.1119; NumFinE is introduced by this paper.
NASH_BIBTEX = """\
@inproceedings{huang-etal-2026-nash,
  title={{NASH}: Numerically Aware Scoring Heuristic for Robust Semantic Similarity},
  author={Huang, Yu-Shiang and Lee, Yun-Yu and Chou, Tzu-Hsin and Lin, Che and Wang, Chuan-Ju},
  booktitle={Findings of the Association for Computational Linguistics: ACL 2026},
  pages={22303--22317},
  year={2026},
  url={https://aclanthology.org/2026.findings-acl.1119/}
}"""

BERTSCORE_BIBTEX = """\
@inproceedings{bert-score,
  title={BERTScore: Evaluating Text Generation with BERT},
  author={Tianyi Zhang and Varsha Kishore and Felix Wu and Kilian Q. Weinberger and Yoav Artzi},
  booktitle={International Conference on Learning Representations},
  year={2020},
  url={https://openreview.net/forum?id=SkeHuCVFDr}
}"""

# EmbedNum-1K: arXiv:2509.05691; Findings of EACL 2026 (ACL Anthology 2026.findings-eacl.289), pp. 5448-5461.
EMBEDNUM1K_BIBTEX = """\
@inproceedings{deng-etal-2026-revealing,
  title={Revealing the Numeracy Gap: An Empirical Investigation of Text Embedding Models},
  author={Deng, Ningyuan and Duan, Hanyu and Tang, Yixuan and Yang, Yi},
  booktitle={Findings of the Association for Computational Linguistics: EACL 2026},
  pages={5448--5461},
  year={2026},
  address={Rabat, Morocco},
  publisher={Association for Computational Linguistics},
  url={https://arxiv.org/abs/2509.05691}
}"""

NQUAD_BIBTEX = """\
@inproceedings{chen2021nquad,
  title = {NQuAD: 70,000+ Questions for Machine Comprehension of the Numerals in Text},
  author = {Chen, Chung-Chi and Huang, Hen-Hsen and Takamura, Hiroya and Chen, Hsin-Hsi},
  booktitle = {Proceedings of the 30th ACM International Conference on Information and Knowledge Management},
  year = {2021}
}"""
