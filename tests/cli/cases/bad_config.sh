# Malformed and contradictory config.json files: each is exit 2 with one
# line on stderr that names the file and the key (or the JSON position) and
# says what is expected; an unreadable file is exit 3.  The files are
# written here; the expected key of each is the one made wrong.
check() { # NAME WANT_RC TEXT...: the file NAME.json must fail so, its message holding TEXT
  name=$1 want=$2; shift 2
  "$ROPELAB" freqs --config "$name.json" > out.csv 2> err.txt
  rc=$?
  lines=$(wc -l < err.txt)
  ok=1
  [ "$rc" = "$want" ] && [ "$lines" = 1 ] && [ ! -s out.csv ] || ok=0
  grep -q "config '$name.json'" err.txt || ok=0
  for t in "$@"; do grep -qF -- "$t" err.txt || ok=0; done
  if [ $ok = 1 ]; then echo "ok: $name"; else echo "not ok: $name (rc $rc, $lines lines)"; cat err.txt; fi
}
base='"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072'
printf '{"rope_theta": 10000.0, "hidden_size": 4' > truncated.json
check truncated 2 "invalid JSON" "line 1" "expected a config.json"
: > empty.json
check empty 2 "invalid JSON"
printf '{"rope_theta": "10000", %s}' "$base" > theta_string.json
check theta_string 2 "invalid rope_theta '10000'" "expected a number"
printf '{"rope_theta": 1e999, %s}' "$base" > theta_overflow.json
check theta_overflow 2 "invalid JSON"
printf '{"rope_theta": NaN, %s}' "$base" > theta_nan.json
check theta_nan 2 "invalid JSON"
printf '{"rope_theta": 0.5, %s}' "$base" > theta_small.json
check theta_small 2 "invalid rope_theta '0.5'" "expected"
printf '{"rope_theta": 1e4, "rope_theta": 5e5, %s}' "$base" > duplicate.json
check duplicate 2 "invalid JSON" "duplicate"
printf '{"rope_th\377ta": 1e4, %s}' "$base" > not_utf8.json
check not_utf8 2 "invalid JSON" "line 1"
printf '[1, 2]' > array.json
check array 2 "top level" "expected a JSON object"
printf '{"rope_theta": 1e4}' > no_dims.json
check no_dims 2 "missing head_dim" "hidden_size and num_attention_heads"
printf '{%s, "rope_scaling": {"rope_type": "turbo", "factor": 2.0}}' "$base" > unknown_type.json
check unknown_type 2 "invalid rope_scaling.rope_type 'turbo'" "expected default, linear"
printf '{%s, "rope_scaling": {"rope_type": "yarn", "type": "linear", "factor": 2.0}}' "$base" > type_disagrees.json
check type_disagrees 2 "contradictory rope_scaling.rope_type 'yarn' and rope_scaling.type 'linear'"
printf '{%s, "rope_scaling": {"rope_type": "linear", "factor": "2"}}' "$base" > factor_string.json
check factor_string 2 "invalid rope_scaling.factor '2'" "expected a number"
printf '{%s, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}' "$base" > factor_small.json
check factor_small 2 "invalid rope_scaling.factor '0.5'" "expected"
printf '{%s, "rope_scaling": {"rope_type": "linear"}}' "$base" > factor_missing.json
check factor_missing 2 "missing rope_scaling.factor" "expected a number"
printf '{%s, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}' "$base" > llama3_no_low.json
check llama3_no_low 2 "missing rope_scaling.low_freq_factor"
printf '{%s, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}}' "$base" > llama3_no_orig.json
check llama3_no_orig 2 "missing rope_scaling.original_max_position_embeddings"
# head_dim 128: 64 factors per list; 63 short ones
short=$(seq 63 | sed 's/.*/1.5/' | paste -sd, -) long=$(seq 64 | sed 's/.*/2.5/' | paste -sd, -)
printf '{%s, "original_max_position_embeddings": 4096, "rope_scaling": {"type": "longrope", "short_factor": [%s], "long_factor": [%s]}}' "$base" "$short" "$long" > factors_short.json
check factors_short 2 "invalid rope_scaling.short_factor" "63 numbers, expected 64"
short=$(seq 63 | sed 's/.*/1.5/' | paste -sd, -)
printf '{%s, "original_max_position_embeddings": 4096, "rope_scaling": {"type": "longrope", "short_factor": [%s,-1], "long_factor": [%s]}}' "$base" "$short" "$long" > factor_negative.json
check factor_negative 2 "invalid rope_scaling.short_factor[63] '-1'" "expected a positive number"
printf '{%s, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 23]}}' "$base" > mrope_sum.json
check mrope_sum 2 "invalid rope_scaling.mrope_section '[16,24,23]'" "summing to 64"
# int(100 * 0.35) = 35 rotated dimensions: odd
printf '{%s, "head_dim": 100, "partial_rotary_factor": 0.35}' "$base" > partial_odd.json
check partial_odd 2 "invalid partial_rotary_factor '0.35'" "rotates 35 of 100"
printf '{%s, "partial_rotary_factor": 1.5}' "$base" > partial_big.json
check partial_big 2 "invalid partial_rotary_factor '1.5'" "a fraction in (0, 1]"
printf '{%s, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "truncate": "no"}}' "$base" > truncate_string.json
check truncate_string 2 "invalid rope_scaling.truncate 'no'" "true or false"
printf '{%s, "head_dim": 128.5}' "$base" > head_dim_fraction.json
check head_dim_fraction 2 "invalid head_dim '128.5'" "a positive integer"
printf '{%s, "rope_scaling": {"rope_type": "linear", "factor": 2.0}, "rope_parameters": {"rope_type": "linear", "rope_theta": 5e5, "factor": 2.0}, "rope_theta": 1e4}' "$base" > theta_twice.json
check theta_twice 2 "invalid rope_parameters.rope_theta '500000'" "the same base as rope_theta"
check missing_file 3 "cannot read config"
