sh ../cli/merge/dask.sh
