sh ../cli/analyze/return-address-role.sh
