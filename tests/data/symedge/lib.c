/* tests/data/symedge/mk.sh: two functions back to back (-O0, no padding): the byte before
 * lib_other is lib_pad's, so a pc looked up as a return address names lib_pad */
int lib_pad(int x);
int lib_other(int x);

int lib_pad(int x)
{
    return x + 1;
}

int lib_other(int x)
{
    return lib_pad(x) * 31 + 7;
}
