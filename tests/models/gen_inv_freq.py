#!/usr/bin/env python3
"""gen_inv_freq.py: the inv_freq that transformers' own _compute_*_parameters
give for the shipped model configs (experiments/models/*.json), made ONCE
from the real code running and committed as inv_freq.txt; the test suite
never runs torch (tests/cli/cases/config_transformers_inv_freq.sh compares
ropelab's exact frequencies with this table).

  /usr/bin/python3 gen_inv_freq.py HF_DIR MODELS_DIR > inv_freq.txt

HF_DIR holds a package 'transformers' whose modeling_rope_utils.py carries
the _compute_default/linear/yarn/longrope/llama3 function bodies of
transformers' src/transformers/modeling_rope_utils.py at commit
ef46806472a64b0013ed413781e3afed82bfa047 verbatim (read through the
reference store; not kept in this repository), and two-line stubs for
configuration_utils.py (PretrainedConfig = object) and utils.py
(is_torch_available, logging).

Each config.json becomes a SimpleNamespace with its own keys, as
PretrainedConfig sets them, with the renames the model classes make:
GPT-NeoX's rotary_pct / rotary_emb_base as partial_rotary_factor /
rope_theta (GPTNeoXConfig; transformers 4.45's print of the Pythia config
shows both names), Qwen2-VL's rope_scaling type 'mrope' as the default
frequencies (Qwen2VLConfig), Phi-3's legacy type 'su' through the LongRoPE
function.  The function is the one ROPE_INIT_FUNCTIONS maps the kind to,
called with device None and seq_len None (the frequencies at init: Phi-3's
short list).  DeepSeek-V2-Lite is left out: at this commit
_compute_yarn_parameters reads L from max_position_embeddings (163840)
and knows no mscale / mscale_all_dim, while DeepSeek's own code (and
ropelab) take original_max_position_embeddings = 4096; its head is also
qk_rope_head_dim, which this function does not read.

A config with a RoPE per attention layer type (Gemma 3: rope_local_base_freq
beside rope_theta) gives one table per type, named NAME@full_attention and
NAME@sliding_attention; its keys are read from text_config when the file is
a multimodal config, as Gemma3ForConditionalGeneration builds its text model.

Output: one line per pair, NAME PAIR VALUE, VALUE the float32 inv_freq
as Python's repr of the exact float (shortest round-trip)."""
import copy
import json
import os
import sys
import types

SKIP = {"deepseek-v2-lite"}


def main(hf_dir, models):
    sys.path.insert(0, hf_dir)
    import torch
    from transformers import modeling_rope_utils as mru
    torch.set_num_threads(1)
    print(f"# transformers modeling_rope_utils.py ef46806472a64b0013ed413781e3afed82bfa047, "
          f"torch {torch.__version__} (Debian python3-torch), one thread")
    for fn in sorted(os.listdir(models)):
        name = fn[:-5]
        if not fn.endswith(".json") or name in SKIP:
            continue
        raw = json.load(open(os.path.join(models, fn)))
        if "text_config" in raw:  # a multimodal config: the text model's own
            raw = dict(raw["text_config"], _from=raw.get("model_type"))
        for lt, cfg in layer_configs(raw):
            rs = cfg.rope_scaling or {}
            kind = rs.get("rope_type", rs.get("type", "default"))
            kind = {"mrope": "default", "su": "longrope"}.get(kind, kind)
            inv_freq, _ = mru.ROPE_INIT_FUNCTIONS[kind](cfg, None)
            assert inv_freq.dtype == torch.float32
            label = name + ("@" + lt if lt else "")
            for i, v in enumerate(inv_freq.tolist()):
                print(f"{label} {i} {v!r}")


def layer_configs(raw):
    """(layer type or None, config namespace): Gemma 3's sliding layers get a
    copy with rope_theta = rope_local_base_freq and rope_scaling default, as
    Gemma3TextModel builds rotary_emb_local (transformers 4.50); its full
    layers the config as it is."""
    cfg = types.SimpleNamespace(**{k: v for k, v in raw.items() if not k.startswith("_")})
    if not hasattr(cfg, "rope_scaling"):
        cfg.rope_scaling = None
    if raw.get("model_type") == "gpt_neox":
        cfg.partial_rotary_factor = raw["rotary_pct"]
        cfg.rope_theta = raw["rotary_emb_base"]
    if "rope_local_base_freq" not in raw:
        return [(None, cfg)]
    local = copy.deepcopy(cfg)
    local.rope_theta = raw["rope_local_base_freq"]
    local.rope_scaling = {"rope_type": "default"}
    return [("full_attention", cfg), ("sliding_attention", local)]


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
