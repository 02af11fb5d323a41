sh ../cli/merge/ci-recipe.sh
