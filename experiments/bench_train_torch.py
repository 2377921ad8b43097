#!/usr/bin/env python3
# bench_train_torch.py: the PyTorch peer of `ropelab train --scheme rope`
# for experiments/bench_train_torch.sh: the same decoder (token embedding
# tied to the output, pre-LayerNorm blocks, causal attention with rotary
# q and k in the half layout, GELU MLP of width 4D, final LayerNorm;
# GPT-2's initialisation), the same AdamW (betas 0.9, 0.99, eps 1e-8,
# weight decay 0.1 on the matrices, gradient norm clipped at 1) on copy
# batches (n uniform in 1..L, the question, a separator, the answer; loss
# on the answer only), padded to T = 2L + 1 positions.  Written from the
# PyTorch 1.13 documentation of torch.nn.functional (layer_norm, linear,
# gelu with approximate='tanh', softmax, cross_entropy) and
# torch.optim.AdamW; the rotation is RoFormer's (Su et al. 2021, eq. 34)
# with the pairs (i, i + hd/2) as transformers' rotate_half pairs them.
#
# Prints one line: dtype,threads,steps,positions,cpu_s,wall_s,positions_per_cpu_s
# (positions: batch x T per step, the padded positions computed; CPU time
# of the whole process over the timed steps, time.process_time, after
# WARMUP untimed steps).
import argparse
import math
import time

import torch
import torch.nn.functional as F


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--train-len", type=int, default=20)
    ap.add_argument("--symbols", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    dt = torch.float32 if a.dtype == "float32" else torch.float64
    V, D, H, NL, B, L = a.symbols + 2, a.d_model, a.heads, a.layers, a.batch, a.train_len
    T, hd = 2 * L + 1, a.d_model // a.heads
    sep = a.symbols

    def normal(*shape, sd=0.02):
        return (torch.randn(*shape, dtype=dt) * sd).requires_grad_()

    def const(v, *shape):
        return torch.full(shape, v, dtype=dt, requires_grad=True)

    rs = 0.02 / math.sqrt(2 * NL)
    wte = normal(V, D)
    blocks = []
    for _ in range(NL):
        blocks.append(dict(
            ln1w=const(1.0, D), ln1b=const(0.0, D), qkvw=normal(3 * D, D), qkvb=const(0.0, 3 * D),
            pw=normal(D, D, sd=rs), pb=const(0.0, D), ln2w=const(1.0, D), ln2b=const(0.0, D),
            fcw=normal(4 * D, D), fcb=const(0.0, 4 * D), fpw=normal(D, 4 * D, sd=rs),
            fpb=const(0.0, D)))
    lnfw, lnfb = const(1.0, D), const(0.0, D)
    decay = [wte] + [b[k] for b in blocks for k in ("qkvw", "pw", "fcw", "fpw")]
    rest = [lnfw, lnfb] + [b[k] for b in blocks for k in ("ln1w", "ln1b", "qkvb", "pb", "ln2w",
                                                           "ln2b", "fcb", "fpb")]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": rest, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.99), eps=1e-8)
    # rotary tables, theta_i = 10000^(-2i/hd), pairs (i, i + hd/2)
    inv = 10000.0 ** (-torch.arange(0, hd // 2, dtype=torch.float64) * 2 / hd)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
    cos = torch.cat([ang.cos(), ang.cos()], dim=1).to(dt)
    sin = torch.cat([ang.sin(), ang.sin()], dim=1).to(dt)
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    gen = torch.Generator().manual_seed(a.seed)

    def rot(x):
        x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
        return x * cos + torch.cat([-x2, x1], dim=-1) * sin

    def batch():
        n = torch.randint(1, L + 1, (B,), generator=gen)
        sym = torch.randint(0, a.symbols, (B, L), generator=gen)
        seq = torch.full((B, T + 1), sep + 1, dtype=torch.long)  # padding token
        tgt = torch.full((B, T), -100, dtype=torch.long)  # ignored
        for b in range(B):
            k = int(n[b])
            seq[b, :k] = sym[b, :k]
            seq[b, k] = sep
            seq[b, k + 1: 2 * k + 1] = sym[b, :k]
            tgt[b, k: 2 * k] = sym[b, :k]  # position t predicts token t + 1
        return seq[:, :T], tgt

    def step(inp, tgt):
        x = wte[inp]
        for b in blocks:
            h = F.layer_norm(x, (D,), b["ln1w"], b["ln1b"])
            q, k, v = F.linear(h, b["qkvw"], b["qkvb"]).split(D, dim=-1)
            q, k, v = (t.view(B, T, H, hd).transpose(1, 2) for t in (q, k, v))
            s = rot(q) @ rot(k).transpose(-1, -2) / math.sqrt(hd)
            y = F.softmax(s.masked_fill(mask, float("-inf")), dim=-1) @ v
            x = x + F.linear(y.transpose(1, 2).reshape(B, T, D), b["pw"], b["pb"])
            h = F.layer_norm(x, (D,), b["ln2w"], b["ln2b"])
            h = F.gelu(F.linear(h, b["fcw"], b["fcb"]), approximate="tanh")
            x = x + F.linear(h, b["fpw"], b["fpb"])
        logits = F.linear(F.layer_norm(x, (D,), lnfw, lnfb), wte)
        loss = F.cross_entropy(logits.reshape(B * T, V), tgt.reshape(B * T), ignore_index=-100)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(decay + rest, 1.0)
        opt.step()
        return float(loss)

    data = [batch() for _ in range(a.warmup + a.steps)]  # drawn before the clocks
    for i in range(a.warmup):
        step(*data[i])
    c0, w0 = time.process_time(), time.perf_counter()
    for i in range(a.warmup, a.warmup + a.steps):
        step(*data[i])
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    pos = a.steps * B * T
    print(f"{a.dtype},{a.threads},{a.steps},{pos},{cpu:.3f},{wall:.3f},{pos / cpu:.0f}")


if __name__ == "__main__":
    main()
