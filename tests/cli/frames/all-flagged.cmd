tracetool frames --format json frames-all-flagged.txt && tracetool frames frames-all-flagged.txt
