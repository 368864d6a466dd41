# The two commands a newcomer needs: `make demo` and `make test`. Both set themselves up.
VENV   := .venv
STAMP  := $(VENV)/.installed
SYSPKG := gcc python3-dev tesseract-ocr fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-urw-base35 \
          fonts-dkg-handwriting fonts-breip fonts-sjfonts chromium

.PHONY: demo test bench setup clean serve

setup: $(STAMP)

# System packages: a C compiler and the Python headers (the Boggle path walk, solver/paths.pyx, is compiled with
# Cython at install time), Tesseract (for the pytesseract engine), the fonts the sample generator renders with
# (print faces, and handwriting faces for hand-lettered puzzles), and Chromium (the web app's browser tests
# drive it with Playwright).
# The venv is reinstalled only when pyproject.toml, the pinned versions (constraints.txt) or the compiled walk
# (setup.py, solver/paths.pyx) change.
$(STAMP): pyproject.toml constraints.txt setup.py solver/paths.pyx
	@missing=""; for p in $(SYSPKG); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -c constraints.txt -e '.[test]'
	@touch $(STAMP)

demo: $(STAMP)
	@mkdir -p out
	$(VENV)/bin/wordsearch solve samples/photo.jpg -o out/photo-solved.jpg --json out/photo-solved.json
	@echo "annotated image: out/photo-solved.jpg"

# The web app on http://127.0.0.1:8000/ (SERVE_ARGS="--host 0.0.0.0" to open it from a phone on your network).
serve: $(STAMP)
	$(VENV)/bin/wordsearch serve $(SERVE_ARGS)

test: $(STAMP)
	$(VENV)/bin/python -m pytest -q -n 2 tests

bench: $(STAMP)
	$(VENV)/bin/python bench/solver_speed.py
	$(VENV)/bin/python bench/detect_accuracy.py
	$(VENV)/bin/python bench/ocr_speed.py
	$(VENV)/bin/python bench/accuracy.py --synthetic 40
	$(VENV)/bin/python bench/accuracy.py --conditions 10
	$(VENV)/bin/python bench/accuracy.py --corpus-conditions
	$(VENV)/bin/python bench/orientation.py
	$(VENV)/bin/python bench/wordlist_accuracy.py --synthetic 20
	$(VENV)/bin/python bench/scan_speed.py
	$(VENV)/bin/python bench/batch_speed.py
	$(VENV)/bin/python bench/serve_load.py

clean:
	rm -rf $(VENV) out build solver/paths.c solver/paths.*.so
