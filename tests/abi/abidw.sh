#!/bin/sh
# abidw with the options the baseline and the check share: public types only
# (those declared under include/), no file paths or line numbers.
# usage: abidw.sh LIBRARY INCLUDE_DIR
exec abidw --no-corpus-path --no-show-locs --no-comp-dir-path \
    --headers-dir "$2" --drop-private-types "$1"
