#!/usr/bin/env bash
# Run 54b (stop 70): the state-space fixtures (Mamba-2, Mamba,
# Falcon-Mamba, Granite 4.0 H in two forms, Bamba, Nemotron-H) made by
# tools/hf-fixtures/make_fixtures.py, and transformers' own modeling
# files of those models (what the importer follows).
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
cd tools/hf-fixtures
timeout 400 python3 make_fixtures.py --out /tmp/fx --only mamba2 mamba falcon_mamba granitemoehybrid granitemoehybrid_dense bamba nemotron_h 2>&1 | tee $OUT/fx.log | grep -v Warning | tail -40
tar -czf $OUT/fx.tgz -C /tmp fx
T=$(python3 -c "import transformers, os; print(os.path.dirname(transformers.__file__))")
tar -czf $OUT/src.tgz -C $T/models mamba2 mamba falcon_mamba granitemoehybrid bamba nemotron_h 2>&1 | tail -2
python3 -c "import transformers as t; print(t.__version__)"
