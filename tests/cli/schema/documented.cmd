sh ../check-schema-doc.sh
