/* ios fixture: Objective-C root class, class and instance methods, a category, a block */
__attribute__((objc_root_class))
@interface Foo
+ (int)bar:(int)x;
- (int)baz;
@end

@implementation Foo
+ (int)bar:(int)x
{
    return x + 1;
}
- (int)baz
{
    return 42;
}
@end

@interface Foo (Extra)
- (int)qux;
@end

@implementation Foo (Extra)
- (int)qux
{
    return 7;
}
@end

extern volatile int sink;

__attribute__((noinline)) static int call_block(int (^b)(int))
{
    return b(sink);
}

int objc_main(void)
{
    return call_block(^(int v) {
        sink = v + 2;
        return sink;
    });
}
