sh ../check-synopsis.sh
