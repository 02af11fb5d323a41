tracetool symbolicate -e macho/app --load-address 0x102c40000 -a -f -i -p 0x102c44050 0x102c44110
