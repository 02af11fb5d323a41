tracetool frames frames-soak.txt && tracetool frames --format json frames-soak.txt | sed -n '/"series"/,$p'
