sh ../cli/main/fifo-inputs.sh
