#!/usr/bin/env python3
"""gen_refs.py: the reference tables of tests/precision/refs, made ONCE from
the real code running (torch + transformers' RoPE functions; ggml built from
source), and committed with this provenance.  The test suite never runs
torch or ggml: it compares ropelab with the committed tables
(tests/precision/ref_compare.c).

  gen_refs.py torch HF_DIR OUT_DIR
      HF_DIR holds a package 'transformers' whose modeling_rope_utils.py
      is transformers' file (commit 0044e3b3facff1a1ad60b235c69d5b45beae75a4,
      the function bodies verbatim) and rotary.py LlamaRotaryEmbedding of
      models/llama/modeling_llama.py (__init__, _dynamic_frequency_update,
      forward verbatim); configuration_utils.py / utils.py are two-line
      stubs (PretrainedConfig, is_torch_available, logging).  The code is
      read from there at run time, not kept in this repository.
      Runs every configuration twice: torch's default CPU build (ATen
      Vectorized<float>: SLEEF's Sleef_powf8_u10 / Sleef_cosf8_u10 /
      Sleef_sinf8_u10 on this AVX2 machine) and ATEN_CPU_CAPABILITY=default
      (the scalar kernels: glibc's powf, cosf, sinf).  One thread, and
      rotated widths that are multiples of 16, so no entry falls in a
      vectorised loop's scalar tail (ATen's vectorized_loop computes the
      last n mod 16 elements of a loop, and of each thread's chunk, with
      the scalar function: glibc).  SLEEF's cosf/sinf results depend on
      the other lanes of their 8-lane vector (the argument reduction is
      chosen for the whole vector), which ropelab models (hf.c).
  gen_refs.py vllm VLLM_DIR OUT_DIR
      VLLM_DIR holds a package 'vllm' whose
      model_executor/layers/rotary_embedding/ files are vLLM's, the
      function bodies verbatim (vllm-project/vllm, as read through the
      code index, one stored version per file): base.py at 04458da0
      (RotaryEmbedding.__init__, _compute_inv_freq, _compute_cos_sin_cache,
      forward_native), yarn_scaling_rope.py at 0cd57848, llama3_rope.py
      at 045d7575, linear_scaling_rope.py at 0f17ee06 (__init__,
      _compute_cos_sin_cache), common.py's apply_rotary_emb_torch at
      1593f0c1 and its yarn_* functions from the later version that takes
      truncate (the one yarn_scaling_rope.py 0cd57848 calls),
      dynamic_ntk_scaling_rope.py at 3cfbaf33, and a copy of it named
      dynamic_ntk_scaling_rope_pre41277.py whose base expression is the
      one before vLLM PR #41277 ("self.scaling_factor * max_len / ...",
      as quoted in vLLM issues #41236 and #5093).  Stubs, no
      arithmetic: CustomOp (torch.nn.Module with a no-op register),
      current_platform (not CUDA, not ROCm), init_logger,
      direct_register_custom_op, is_rocm_rotatry_embedding_enabled (False).
      No torch function had to be stubbed: torch 1.13 runs these bodies.
      The table is the module's cos_sin_cache buffer (built once for
      positions 0..max_position - 1 and stored in the model dtype, as
      __init__ does), at the positions of the .pos file; the same two
      modes (SLEEF, ATEN_CPU_CAPABILITY=default) as torch above.  For a
      few, also forward_native's rotation of a fixed query (NAME_x.f32,
      in the model dtype, is_neox_style False: adjacent pairs) at each
      position: NAME_rot, compared as the ggml rotation tables are.
  gen_refs.py ggml DRIVER_FMA DRIVER_STRICT OUT_DIR
      the two builds of tests/precision/refgen/ggml_rope_dump.c made by
      gen_ggml.sh (ggml with and without FMA).

Made with (2026-11-25; vLLM's tables the same day, same torch), Debian 12, x86-64 with AVX2 and FMA):
  torch 1.13.1+dfsg-4 (python3-torch; libtorch_cpu links libsleef.so.3,
  libsleef3 3.5.1-3; 'CPU capability usage: AVX2'); glibc 2.36-9+deb12u14;
  ggml-org/ggml d99724f2b141fed9e1a9f402213506c081433465, GCC 12.2, CMake
  Release (see gen_ggml.sh for the options).

Output: per table NAME.f32 (little-endian float32; per position, per pair
i < rot/2: cos, sin as the framework's table holds them, attention factor
included) or NAME.diff (records uint32 entry index, float32 value: the
entries where this table differs from its partner), NAME.pos (positions,
one a line), and one MANIFEST line per table:
  NAME POS PRECISION METHOD DIM ROT BASE FACTOR TRAIN_LEN SEQ_LEN PARTNER [X]
(PARTNER '-' for a full table; FACTOR/TRAIN_LEN/SEQ_LEN '-' when unused).
With X (a file of DIM float32 values), the table is not cos/sin but the
framework's rotation of that vector at each position (ggml: adjacent
pairs, GGML_ROPE_TYPE_NORMAL; the attention factor included)."""
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile


def positions(limit=2**31 - 1):
    """0..255, every 8th to 4095, 2^k - 1, 2^k, 2^k + 1 up to 2^31 - 1."""
    ps = set(range(256)) | set(range(256, 4096, 8)) | {4095, 2**31 - 1}
    for k in range(12, 32):
        ps |= {2**k - 1, 2**k, 2**k + 1}
    return sorted(p for p in ps if p <= limit)


# name, precision, method, dim, rot, base, factor, train_len, seq_len, rope_scaling
TORCH = [
    ("hf_rope_d128", "rope", 128, 128, 10000.0, None, 4096, None, None),
    ("hf_rope_d64_b5e5", "rope", 64, 64, 500000.0, None, 4096, None, None),
    ("hf_rope_d128_r64", "rope", 128, 64, 10000.0, None, 4096, None, None),
    ("hf_linear_d64", "linear", 64, 64, 10000.0, 4.0, 4096, None, {"rope_type": "linear", "factor": 4.0}),
    ("hf_yarn_d64", "yarn", 64, 64, 10000.0, 4.0, 4096, None, {"rope_type": "yarn", "factor": 4.0}),
    ("hf_llama3_d64", "llama3", 64, 64, 500000.0, 8.0, 8192, None,
     {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
      "original_max_position_embeddings": 8192}),
]
# dynamic: lengths where the float32 tensor arithmetic of the base and the
# exact base rounded once to float32 differ (10007, 1000003, 16777219), the
# first length past L, and 2^31 (the last int32 position)
for N in (4097, 10007, 1000003, 16777219, 2**31):
    TORCH.append((f"hf_dynamic_d64_n{N}", "dynamic", 64, 64, 10000.0, 2.0, 4096, N,
                  {"rope_type": "dynamic", "factor": 2.0}))
TORCH.append(("hf_dynamic_d64_b5e5_n16777219", "dynamic", 64, 64, 500000.0, 8.0, 8192, 16777219,
              {"rope_type": "dynamic", "factor": 8.0}))


# bfloat16 and float16 models (cos.to(x.dtype)): two configurations, at
# positions 0..255 and the large ones (a smaller file); stored as float32
# (exact), named NAME_DTYPE
DTYPES = [("hf_yarn_d64", "bf16"), ("hf_yarn_d64", "f16"),
          ("hf_dynamic_d64_n1000003", "bf16"), ("hf_dynamic_d64_n1000003", "f16")]


def small(ps):
    return [p for p in ps if p < 256 or p >= 4096]


def torch_dump(mode, hf_dir, out):
    """Runs in a child process (ATEN_CPU_CAPABILITY must be set before
    torch loads); writes raw float32 tables to out/NAME.MODE."""
    import types
    import torch
    sys.path.insert(0, hf_dir)
    from transformers.rotary import LlamaRotaryEmbedding
    torch.set_num_threads(1)
    for name, method, dim, rot, base, factor, L, N, scaling in TORCH:
        cfg = types.SimpleNamespace(rope_theta=base, hidden_size=dim, num_attention_heads=1,
                                    max_position_embeddings=L if method != "llama3" else 16 * L,
                                    rope_scaling=scaling)
        if rot != dim:
            cfg.partial_rotary_factor = rot / dim
        emb = LlamaRotaryEmbedding(cfg)
        ps = positions(N - 1 if N else 2**31 - 1)
        if N and ps[-1] != N - 1:
            ps.append(N - 1)
        pid = torch.tensor([ps], dtype=torch.int64)
        cos, sin = emb(torch.zeros(1, dtype=torch.float32), pid)
        h = rot // 2
        t = torch.stack((cos[0, :, :h], sin[0, :, :h]), dim=-1).contiguous()
        with open(os.path.join(out, f"{name}.{mode}"), "wb") as f:
            f.write(t.numpy().astype("<f4").tobytes())
        with open(os.path.join(out, f"{name}.pos"), "w") as f:
            f.write("".join(f"{p}\n" for p in ps))
        for dname, dt in DTYPES:
            if dname != name:
                continue
            emb = LlamaRotaryEmbedding(cfg)
            sp = small(ps)
            tdt = torch.bfloat16 if dt == "bf16" else torch.float16
            cos, sin = emb(torch.zeros(1, dtype=tdt), torch.tensor([sp], dtype=torch.int64))
            t = torch.stack((cos[0, :, :h], sin[0, :, :h]), dim=-1).float().contiguous()
            with open(os.path.join(out, f"{name}_{dt}.{mode}"), "wb") as f:
                f.write(t.numpy().astype("<f4").tobytes())
            with open(os.path.join(out, f"{name}_small.pos"), "w") as f:
                f.write("".join(f"{p}\n" for p in sp))


def write_diff(path, full, other):
    n = len(full) // 4
    a = struct.unpack(f"<{n}I", full)
    b = struct.unpack(f"<{n}I", other)
    recs = [struct.pack("<II", i, b[i]) for i in range(n) if a[i] != b[i]]
    with open(path, "wb") as f:
        f.write(b"".join(recs))
    return len(recs), n


def fmt(v):
    return "-" if v is None else repr(v)


def main_torch(hf_dir, out):
    tmp = tempfile.mkdtemp()
    for mode in ("sleef", "glibc"):
        env = dict(os.environ)
        if mode == "glibc":
            env["ATEN_CPU_CAPABILITY"] = "default"
        subprocess.run([sys.executable, __file__, "_torch", mode, hf_dir, tmp], check=True, env=env)
    lines = []
    for name, method, dim, rot, base, factor, L, N, _ in TORCH:
        full = open(os.path.join(tmp, f"{name}.sleef"), "rb").read()
        other = open(os.path.join(tmp, f"{name}.glibc"), "rb").read()
        with open(os.path.join(out, f"{name}_sleef.f32"), "wb") as f:
            f.write(full)
        nd, n = write_diff(os.path.join(out, f"{name}_glibc.diff"), full, other)
        os.replace(os.path.join(tmp, f"{name}.pos"), os.path.join(out, f"{name}.pos"))
        print(f"{name}: {n} entries, glibc differs from sleef in {nd}", file=sys.stderr)
        tl = L if method in ("linear", "yarn", "llama3", "dynamic") else None
        for mode, prec, partner in (("sleef", "hf-fp32-sleef", "-"), ("glibc", "hf-fp32", f"{name}_sleef")):
            lines.append(f"{name}_{mode} {name}.pos {prec} {method} {dim} {rot} {base!r} "
                         f"{fmt(factor)} {fmt(tl)} {fmt(N)} {partner}\n")
    for name, dt in DTYPES:
        cfg = next(c for c in TORCH if c[0] == name)
        _, method, dim, rot, base, factor, L, N, _ = cfg
        full = open(os.path.join(tmp, f"{name}_{dt}.sleef"), "rb").read()
        other = open(os.path.join(tmp, f"{name}_{dt}.glibc"), "rb").read()
        with open(os.path.join(out, f"{name}_{dt}_sleef.f32"), "wb") as f:
            f.write(full)
        nd, n = write_diff(os.path.join(out, f"{name}_{dt}_glibc.diff"), full, other)
        shutil.copyfile(os.path.join(tmp, f"{name}_small.pos"), os.path.join(out, f"{name}_small.pos"))
        print(f"{name} {dt}: {n} entries, glibc differs from sleef in {nd}", file=sys.stderr)
        for mode, prec, partner in (("sleef", f"hf-{dt}-sleef", "-"),
                                    ("glibc", f"hf-{dt}", f"{name}_{dt}_sleef")):
            lines.append(f"{name}_{dt}_{mode} {name}_small.pos {prec} {method} {dim} {rot} "
                         f"{base!r} {fmt(factor)} {fmt(L)} {fmt(N)} {partner}\n")
    with open(os.path.join(out, "MANIFEST.torch"), "w") as f:
        f.writelines(lines)


# name, method, dim, base, factor, n_ctx_orig
GGML = [
    ("ggml_rope_d64", "rope", 64, 10000.0, None, None),
    ("ggml_linear_d64", "linear", 64, 10000.0, 4.0, None),
    ("ggml_yarn_d64", "yarn", 64, 10000.0, 4.0, 4096),
    ("ggml_yarn_d128_b5e5", "yarn", 128, 500000.0, 8.0, 8192),
]


def main_ggml(drv_fma, drv_strict, out):
    ps = positions()
    lines = []
    inp = "".join(f"{p}\n" for p in ps)
    for name, method, dim, base, factor, L in GGML:
        fs = 1.0 / factor if factor else 1.0
        ext = 1.0 if method == "yarn" else 0.0
        # the method's attention factor (YaRN: 0.1 ln s + 1, as transformers and llama.cpp)
        scale = 0.1 * math.log(factor) + 1.0 if method == "yarn" else 1.0
        args = [str(dim), repr(base), repr(fs), repr(ext), "32", "1", str(L or 0), repr(scale)]
        tabs = {}
        for mode, drv in (("fma", drv_fma), ("strict", drv_strict)):
            tabs[mode] = subprocess.run([drv] + args, input=inp.encode(), check=True,
                                        capture_output=True).stdout
        with open(os.path.join(out, f"{name}_fma.f32"), "wb") as f:
            f.write(tabs["fma"])
        nd, n = write_diff(os.path.join(out, f"{name}_strict.diff"), tabs["fma"], tabs["strict"])
        with open(os.path.join(out, f"{name}.pos"), "w") as f:
            f.write(inp)
        print(f"{name}: {n} entries, strict differs from fma in {nd}", file=sys.stderr)
        for mode, prec, partner in (("fma", "ggml-f32", "-"), ("strict", "ggml-f32-strict", f"{name}_fma")):
            lines.append(f"{name}_{mode} {name}.pos {prec} {method} {dim} {dim} {base!r} "
                         f"{fmt(factor)} {fmt(L)} - {partner}\n")
    # the rotation itself (rotate_pairs, fused in the FMA build): one fixed
    # vector x (float32, Gaussian, every third entry times 300 so that the
    # products differ in magnitude) turned at every position
    import random
    rng = random.Random(20261125)
    for name, method, dim, base, factor, L in GGML[:3:2]:
        x = [struct.unpack("<f", struct.pack("<f", rng.gauss(0, 1) * (1 if k % 3 else 300)))[0]
             for k in range(dim)]
        xname = f"{name}_x.f32"
        with open(os.path.join(out, xname), "wb") as f:
            f.write(struct.pack(f"<{dim}f", *x))
        fs = 1.0 / factor if factor else 1.0
        ext = 1.0 if method == "yarn" else 0.0
        scale = 0.1 * math.log(factor) + 1.0 if method == "yarn" else 1.0
        args = [str(dim), repr(base), repr(fs), repr(ext), "32", "1", str(L or 0), repr(scale),
                "-", os.path.join(out, xname)]
        tabs = {mode: subprocess.run([drv] + args, input=inp.encode(), check=True,
                                     capture_output=True).stdout
                for mode, drv in (("fma", drv_fma), ("strict", drv_strict))}
        with open(os.path.join(out, f"{name}_rot_fma.f32"), "wb") as f:
            f.write(tabs["fma"])
        nd, n = write_diff(os.path.join(out, f"{name}_rot_strict.diff"), tabs["fma"],
                           tabs["strict"])
        print(f"{name} rotation: {n} entries, strict differs from fma in {nd}", file=sys.stderr)
        for mode, prec, partner in (("fma", "ggml-f32", "-"),
                                    ("strict", "ggml-f32-strict", f"{name}_rot_fma")):
            lines.append(f"{name}_rot_{mode} {name}.pos {prec} {method} {dim} {dim} {base!r} "
                         f"{fmt(factor)} {fmt(L)} - {partner} {xname}\n")
    with open(os.path.join(out, "MANIFEST.ggml"), "w") as f:
        f.writelines(lines)


# vLLM: name, method, dim, base, factor, L (the original length), max_position
# (the cache's length: 0..max_position - 1), dtypes besides float32
VLLM = [
    ("vllm_rope_d64", "rope", 64, 10000.0, None, None, 8192, ()),
    ("vllm_rope_d128", "rope", 128, 10000.0, None, None, 8192, ("bf16", "f16")),
    ("vllm_rope_d64_b5e5", "rope", 64, 500000.0, None, None, 8192, ()),
    ("vllm_rope_d128_b5e5", "rope", 128, 500000.0, None, None, 8192, ()),
    ("vllm_linear_d64", "linear", 64, 10000.0, 4.0, 4096, 16384, ()),
    # a factor that is not a power of two: vLLM divides the positions
    # (t / scaling_factor), transformers inv_freq, and the two differ
    ("vllm_linear_d64_f3", "linear", 64, 10000.0, 3.0, 4096, 12288, ()),
    ("vllm_yarn_d64", "yarn", 64, 10000.0, 4.0, 4096, 16384, ("bf16", "f16")),
    ("vllm_yarn_d128_b5e5", "yarn", 128, 500000.0, 8.0, 8192, 65536, ()),
    ("vllm_llama3_d64", "llama3", 64, 500000.0, 8.0, 8192, 131072, ()),
    ("vllm_llama3_d128", "llama3", 128, 500000.0, 8.0, 8192, 131072, ("bf16",)),
    # dynamic_ntk_scaling_rope.py 3cfbaf33 (after vLLM PR #41277): the
    # bracket max_len / L - (s - 1) is 1 at max_len = s L, so the table is
    # rope's at the unscaled base; compared as method rope (see MANIFEST)
    ("vllm_dynamic_d64", "dynamic", 64, 10000.0, 2.0, 4096, 8192, ()),
    # the same class before vLLM PR #41277 (its bracket s * max_len / L -
    # (s - 1) = s^2 - s + 1 at max_len = s L): what 'dynamic --variant
    # vllm' computes
    ("vllm_dynamic_pre41277_d64", "dynamic-pre41277", 64, 10000.0, 2.0, 4096, 8192, ()),
]


# the rotation through forward_native (apply_rotary_emb_torch: x1 * cos -
# x2 * sin, x2 * cos + x1 * sin, each op in the model dtype)
VLLM_ROT = {("vllm_rope_d128", "f32"), ("vllm_rope_d128", "bf16"), ("vllm_rope_d128", "f16"),
            ("vllm_yarn_d64", "f32"), ("vllm_yarn_d64", "bf16")}


def vllm_x(dim):
    """The fixed query: float32 Gaussians, every third entry times 300."""
    import random
    rng = random.Random(20261125)
    return [struct.unpack("<f", struct.pack("<f", rng.gauss(0, 1) * (1 if k % 3 else 300)))[0]
            for k in range(dim)]


def vllm_positions(maxpos):
    """positions() below max_position, and the cache's last row."""
    return sorted(set(positions(maxpos - 1)) | {maxpos - 1})


def vllm_dump(mode, vllm_dir, out):
    """Child process (ATEN_CPU_CAPABILITY set before torch loads)."""
    import torch
    sys.path.insert(0, vllm_dir)
    from vllm.model_executor.layers.rotary_embedding.base import RotaryEmbedding
    from vllm.model_executor.layers.rotary_embedding.dynamic_ntk_scaling_rope import (
        DynamicNTKScalingRotaryEmbedding)
    from vllm.model_executor.layers.rotary_embedding.dynamic_ntk_scaling_rope_pre41277 import (
        DynamicNTKScalingRotaryEmbedding as DynamicPre41277)
    from vllm.model_executor.layers.rotary_embedding.linear_scaling_rope import (
        LinearScalingRotaryEmbedding)
    from vllm.model_executor.layers.rotary_embedding.llama3_rope import Llama3RotaryEmbedding
    from vllm.model_executor.layers.rotary_embedding.yarn_scaling_rope import (
        YaRNScalingRotaryEmbedding)
    torch.set_num_threads(1)
    dts = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    for name, method, dim, base, factor, L, maxpos, extra in VLLM:
        for dt in ("f32",) + extra:
            dtype = dts[dt]
            # as vLLM's get_rope builds them (neox style; the cache does not
            # depend on it)
            if method == "rope":
                emb = RotaryEmbedding(dim, dim, maxpos, base, True, dtype)
            elif method == "linear":
                emb = LinearScalingRotaryEmbedding(dim, dim, L, base, True, factor, dtype)
            elif method == "dynamic":
                emb = DynamicNTKScalingRotaryEmbedding(dim, dim, L, base, True, factor, dtype)
            elif method == "dynamic-pre41277":
                emb = DynamicPre41277(dim, dim, L, base, True, factor, dtype)
            elif method == "yarn":
                emb = YaRNScalingRotaryEmbedding(dim, dim, L, base, True, factor, dtype)
            else:
                emb = Llama3RotaryEmbedding(dim, dim, maxpos, base, True, dtype, factor, 1.0, 4.0, L)
            cache = emb.cos_sin_cache
            assert cache.shape[0] == maxpos, (name, cache.shape)
            ps = vllm_positions(maxpos)
            rows = cache.index_select(0, torch.tensor(ps, dtype=torch.int64))
            h = dim // 2
            t = torch.stack((rows[:, :h], rows[:, h:]), dim=-1).float().contiguous()
            tag = name if dt == "f32" else f"{name}_{dt}"
            with open(os.path.join(out, f"{tag}.{mode}"), "wb") as f:
                f.write(t.numpy().astype("<f4").tobytes())
            with open(os.path.join(out, f"{name}.pos"), "w") as f:
                f.write("".join(f"{p}\n" for p in ps))
            if (name, dt) in VLLM_ROT:
                # forward_native on one head: the query x (in the model
                # dtype) turned at each position, GPT-J style (adjacent
                # pairs, as ref_compare applies it)
                x = vllm_x(dim)
                with open(os.path.join(out, f"{name}_x.f32"), "wb") as f:
                    f.write(struct.pack(f"<{dim}f", *x))
                emb.is_neox_style = False
                q = torch.tensor([x] * len(ps), dtype=torch.float32).to(dtype)
                y, _ = emb.forward_native(torch.tensor(ps, dtype=torch.int64), q)
                with open(os.path.join(out, f"{tag}_rot.{mode}"), "wb") as f:
                    f.write(y.float().contiguous().numpy().astype("<f4").tobytes())


def main_vllm(vllm_dir, out):
    tmp = tempfile.mkdtemp()
    for mode in ("sleef", "glibc"):
        env = dict(os.environ)
        if mode == "glibc":
            env["ATEN_CPU_CAPABILITY"] = "default"
        subprocess.run([sys.executable, __file__, "_vllm", mode, vllm_dir, tmp], check=True,
                       env=env)
    lines = []
    for name, method, dim, base, factor, L, maxpos, extra in VLLM:
        os.replace(os.path.join(tmp, f"{name}.pos"), os.path.join(out, f"{name}.pos"))
        for dt in ("f32",) + extra:
            tag = name if dt == "f32" else f"{name}_{dt}"
            full = open(os.path.join(tmp, f"{tag}.sleef"), "rb").read()
            other = open(os.path.join(tmp, f"{tag}.glibc"), "rb").read()
            with open(os.path.join(out, f"{tag}_sleef.f32"), "wb") as f:
                f.write(full)
            nd, n = write_diff(os.path.join(out, f"{tag}_glibc.diff"), full, other)
            print(f"{tag}: {n} entries, glibc differs from sleef in {nd}", file=sys.stderr)
            prec = "vllm-fp32" if dt == "f32" else f"vllm-{dt}"
            meth, fac, tl = method, factor, L
            if method == "dynamic":
                lines.append(f"# {tag}: vLLM's dynamic NTK at dynamic_ntk_scaling_rope.py "
                             f"3cfbaf33, factor {factor!r}, L {L}: rope's table at base "
                             f"{base!r} (the bracket is 1); ropelab's 'dynamic --variant vllm' "
                             f"is the version before vLLM PR #41277 (bracket s^2 - s + 1)\n")
                meth, fac, tl = "rope", None, None
            if method == "dynamic-pre41277":
                meth = "dynamic"
            for m, pr, partner in (("sleef", prec + "-sleef", "-"), ("glibc", prec, f"{tag}_sleef")):
                lines.append(f"{tag}_{m} {name}.pos {pr} {meth} {dim} {dim} {base!r} "
                             f"{fmt(fac)} {fmt(tl)} - {partner}\n")
            if (name, dt) not in VLLM_ROT:
                continue
            shutil.copyfile(os.path.join(tmp, f"{name}_x.f32"), os.path.join(out, f"{name}_x.f32"))
            full = open(os.path.join(tmp, f"{tag}_rot.sleef"), "rb").read()
            other = open(os.path.join(tmp, f"{tag}_rot.glibc"), "rb").read()
            with open(os.path.join(out, f"{tag}_rot_sleef.f32"), "wb") as f:
                f.write(full)
            nd, n = write_diff(os.path.join(out, f"{tag}_rot_glibc.diff"), full, other)
            print(f"{tag} rotation: {n} entries, glibc differs from sleef in {nd}", file=sys.stderr)
            for m, pr, partner in (("sleef", prec + "-sleef", "-"),
                                   ("glibc", prec, f"{tag}_rot_sleef")):
                lines.append(f"{tag}_rot_{m} {name}.pos {pr} {meth} {dim} {dim} {base!r} "
                             f"{fmt(fac)} {fmt(tl)} - {partner} {name}_x.f32\n")
    with open(os.path.join(out, "MANIFEST.vllm"), "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["_torch"]:
        torch_dump(a[1], a[2], a[3])
    elif a[:1] == ["_vllm"]:
        vllm_dump(a[1], a[2], a[3])
    elif a[:1] == ["vllm"] and len(a) == 3:
        main_vllm(a[1], a[2])
    elif a[:1] == ["torch"] and len(a) == 3:
        main_torch(a[1], a[2])
    elif a[:1] == ["ggml"] and len(a) == 4:
        main_ggml(a[1], a[2], a[3])
    else:
        sys.exit(__doc__)
