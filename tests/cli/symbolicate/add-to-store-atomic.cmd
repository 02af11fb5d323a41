sh ../cli/symbolicate/add-to-store-atomic.sh
